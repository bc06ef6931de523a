package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pieces parsed on threads of their own: all results in order, or null, and a failure stops the other pieces. */
@Timeout(30)
class FilePiecesTest {
    private static final List<FilePieces.Range> FOUR = List.of(new FilePieces.Range(0, 10, false),
            new FilePieces.Range(10, 20, false), new FilePieces.Range(20, 30, false),
            new FilePieces.Range(30, 40, true));

    @Test
    void cleanPiecesComeBackInTheirOrder() {
        assertEquals(List.of(0L, 10L, 20L, 30L), FilePieces.parse(FOUR, r -> {
            Thread.sleep(40 - r.from()); // the last piece finishes first
            return r.from();
        }));
    }

    @Test
    void aFailingPieceInterruptsTheOthersInsteadOfLettingThemReadOn() throws Exception {
        AtomicInteger interrupted = new AtomicInteger();
        CountDownLatch othersStarted = new CountDownLatch(3);
        CountDownLatch othersEnded = new CountDownLatch(3);
        List<Long> out = FilePieces.parse(FOUR, r -> {
            if (r.from() == 20) {
                othersStarted.await();
                throw new IOException("malformed line");
            }
            othersStarted.countDown();
            try {
                Thread.sleep(60_000); // stands for reading a long piece
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
                throw e;
            } finally {
                othersEnded.countDown();
            }
            return r.from();
        });
        assertNull(out);
        assertTrue(othersEnded.await(10, TimeUnit.SECONDS), "the other pieces ended");
        assertEquals(3, interrupted.get(), "the three other pieces were stopped");
        assertFalse(Thread.currentThread().isInterrupted(), "the caller, who reads the file next, is not interrupted");
    }

    @Test
    void anErrorThatIsNotAboutTheFileReachesTheCaller() {
        OutOfMemoryError oom = new OutOfMemoryError("stand-in");
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> FilePieces.parse(FOUR, r -> {
            if (r.from() == 10) {
                throw oom;
            }
            return r.from();
        }));
        assertSame(oom, thrown);
    }

    /**
     * Every split is correct (the piece tests read the same whatever the cut); this pins that it is also the split
     * meant: contiguous ranges from 0 to the end, each starting a line, about equal, only the last one marked last.
     */
    @Test
    void aFileIsCutAtTheFirstLineStartAfterEachShare(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        java.nio.file.Path f = dir.resolve("lines");
        // ten lines of ten bytes: a share of 100/3 = 33 ends inside line 4, so the cut is at 40; 66 cuts at 70
        java.nio.file.Files.writeString(f, "123456789\n".repeat(10));
        assertEquals(List.of(new FilePieces.Range(0, 40, false), new FilePieces.Range(40, 70, false),
                new FilePieces.Range(70, 100, true)), FilePieces.split(f, 3));
        // a share that falls on a line start is cut after the newline at or after it, a line later
        assertEquals(List.of(new FilePieces.Range(0, 60, false), new FilePieces.Range(60, 100, true)),
                FilePieces.split(f, 2));
        assertEquals(List.of(new FilePieces.Range(0, 100, true)), FilePieces.split(f, 1));
        // more pieces than lines: never an empty range, and the ranges still cover the file
        java.nio.file.Files.writeString(f, "a\nb\n");
        assertEquals(List.of(new FilePieces.Range(0, 2, false), new FilePieces.Range(2, 4, true)),
                FilePieces.split(f, 7));
        // one long line with no newline after the first share: one piece
        java.nio.file.Files.writeString(f, "x".repeat(300));
        assertEquals(List.of(new FilePieces.Range(0, 300, true)), FilePieces.split(f, 4));
        java.nio.file.Files.writeString(f, "");
        assertEquals(List.of(), FilePieces.split(f, 4));
    }
}
