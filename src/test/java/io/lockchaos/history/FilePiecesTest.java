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
}
