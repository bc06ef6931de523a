package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.Recipe;
import io.lockchaos.sim.LockSimulator;
import io.lockchaos.sim.SimConfig;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryReadWriteTest {
    @TempDir
    Path dir;

    private static History sample() {
        return LockSimulator.run(SimConfig.defaults(Recipe.READ_WRITE).withTargetOps(300), 42).history();
    }

    @Test
    void jsonlRoundTripsEveryField() throws Exception {
        History h = sample();
        Path f = dir.resolve("history.jsonl");
        HistoryWriter.write(f, h);
        History back = JsonlHistoryReader.read(f);
        assertEquals(h.ops(), back.ops());
    }

    /** The runner's writer: each line is on disk when append returns (a SIGKILL loses nothing), numbered in order. */
    @Test
    void eachAppendedLineIsOnDiskBeforeClose() throws Exception {
        Path f = dir.resolve("live.jsonl");
        try (HistoryWriter w = HistoryWriter.create(f)) {
            Op first = w.append(Op.of(OpType.INVOKE, 1, 0, Fn.ACQUIRE, "/l", null).withIndex(-1));
            assertEquals(0, first.index());
            assertEquals(1, Files.readString(f).lines().count(), "flushed at once");
            Op own = w.append(Op.of(OpType.OK, 2, 0, Fn.ACQUIRE, "/l", null).withIndex(7));
            assertEquals(7, own.index(), "an op's own index is kept");
            assertEquals(8, w.append(Op.of(OpType.INVOKE, 3, 0, Fn.RELEASE, "/l", null).withIndex(-1)).index());
            assertEquals(List.of(0L, 7L, 8L), JsonlHistoryReader.read(f).ops().stream().map(o -> (long) o.index())
                    .toList());
        }
    }

    @Test
    void autoGoesByTheExtensionAndANamedFormatIsKept() {
        assertEquals(HistoryFiles.Format.EDN, HistoryFiles.Format.AUTO.of(Path.of("h.edn")));
        assertEquals(HistoryFiles.Format.JSONL, HistoryFiles.Format.AUTO.of(Path.of("h.jsonl")));
        assertEquals(HistoryFiles.Format.JSONL, HistoryFiles.Format.AUTO.of(Path.of("edn")));
        assertEquals(HistoryFiles.Format.JSONL, HistoryFiles.Format.JSONL.of(Path.of("h.edn")));
        assertEquals(HistoryFiles.Format.EDN, HistoryFiles.Format.EDN.of(Path.of("h.jsonl")));
    }

    @Test
    void ednRoundTripsEveryField() throws Exception {
        History h = sample();
        Path f = dir.resolve("history.edn");
        EdnHistory.write(f, h);
        History back = EdnHistory.read(f);
        // Jepsen marks both halves of a nemesis op :info; :lockchaos/outcome keeps what the completion said.
        assertEquals(h.ops(), back.ops());
        assertTrue(java.nio.file.Files.readString(f).contains(":type :info"));
    }

    @Test
    void everyPrefixOfAStreamedFileIsReadable() throws Exception {
        Path f = dir.resolve("history.jsonl");
        History h = LockSimulator.run(SimConfig.defaults(Recipe.REENTRANT_MUTEX).withTargetOps(40), 7).history();
        try (HistoryWriter w = HistoryWriter.create(f)) {
            for (Op op : h.ops()) {
                w.append(op.withIndex(-1));
            }
        }
        byte[] all = Files.readAllBytes(f);
        for (int cut = 0; cut <= all.length; cut++) {
            String prefix = new String(all, 0, cut, StandardCharsets.UTF_8);
            History p = JsonlHistoryReader.read("cut" + cut, new StringReader(prefix));
            long complete = prefix.chars().filter(c -> c == '\n').count();
            assertTrue(p.size() == complete || p.size() == complete + 1, "cut " + cut);
            assertEquals(h.ops().subList(0, p.size()), p.ops(), "cut " + cut);
            boolean midLine = cut > 0 && all[cut - 1] != '\n' && p.size() == complete;
            assertEquals(midLine, !p.warnings().isEmpty(), "cut " + cut + " " + p.warnings());
        }
    }

    @Test
    void aMissingCompletionAtTheEndCountsAsInfo() throws Exception {
        History h = History.of("t", List.of(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "/l", null)));
        assertEquals(OpType.INFO, h.outcome(0));
        assertEquals(-1, h.completionOf(0));
    }

    @Test
    void rejectsMalformedLinesWithFileLineAndField() {
        String text = "{\"index\":0,\"time\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n"
                + "{\"index\":1,\"time\":1,\"type\":\"ok\",\"process\":\"zero\",\"f\":\"acquire\"}\n";
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> JsonlHistoryReader.read("h.jsonl", new StringReader(text)));
        assertEquals("h.jsonl:2: process: expected a whole number or \"nemesis\", got 'zero'", e.getMessage());
        assertEquals(2, e.line());
    }

    @Test
    void controlCharactersInTheInputDoNotBreakTheOneLineError() {
        // found by the nightly mutation property: a decoded \\r used to end up raw in the message
        String text = "{\"index\":2,\"time\":5,\"type\":\"invoke\",\"process\":1,\"f\":\"acqu\\re\"}\n";
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> JsonlHistoryReader.read("m.jsonl", new StringReader(text)));
        assertEquals("m.jsonl:1: f: unknown f 'acqu\\u000de'", e.getMessage());
    }

    @Test
    void rejectsACompletionWhoseFunctionDiffers() {
        List<Op> ops = List.of(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "/l", null),
                Op.of(OpType.OK, 1, 0, Fn.RELEASE, "/l", null));
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> History.of("m", ops));
        assertEquals("m:2: f: completion is release but the invocation at index 0 is acquire", e.getMessage());
    }

    @Test
    void historiesWithoutTimeAreOrderedByPosition() throws Exception {
        String text = "{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n{\"type\":\"ok\",\"process\":0,\"f\":\"acquire\"}\n";
        History h = JsonlHistoryReader.read("h", new StringReader(text));
        assertEquals(List.of(0L, 1L), h.ops().stream().map(Op::time).toList());
        String mixed = "{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n"
                + "{\"time\":5,\"type\":\"ok\",\"process\":0,\"f\":\"acquire\"}\n";
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> JsonlHistoryReader.read("h", new StringReader(mixed)));
        assertEquals("h:2: time: present although earlier ops have none", e.getMessage());
    }

    @Test
    void readsJepsenNemesisPairsAndValues() throws Exception {
        String edn = "{:type :info, :f :kill, :process :nemesis, :time 1, :value :majority}\n"
                + "{:type :info, :f :kill, :process :nemesis, :time 2, :value {\"n1\" :killed}}\n"
                + "{:type :invoke, :f :cas, :process 0, :time 3, :value [1 2]}\n"
                + "{:type :fail, :f :cas, :process 0, :time 4, :value [1 2], :error :mismatch}\n";
        History h = EdnHistory.read("j.edn", edn);
        assertEquals(OpType.INVOKE, h.get(0).type());
        assertEquals(Fn.KILL, h.get(0).f());
        assertEquals(new EdnValues.KeyedMap(Map.of("n1", new EdnValues.Keyword("killed"))), h.get(1).value(),
                "a map keyed by strings is not one keyed by keywords");
        assertEquals(List.of(1L, 2L), h.get(2).value());
        assertEquals("mismatch", h.get(3).error());
    }

    /** A write that fails (here /dev/full: no space, ever) fails every append after it, with one line (#42). */
    @Test
    void aFailedWriteIsSaidOnceAndNothingMoreIsWritten() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isWritable(full), "skipped: no /dev/full");
        try (HistoryWriter w = HistoryWriter.create(full)) {
            Op op = Op.of(OpType.INVOKE, 1, 0, Fn.ACQUIRE, "/l", null);
            HistoryWriter.WriteFailed first = assertThrows(
                    HistoryWriter.WriteFailed.class, () -> w.append(op));
            assertTrue(first.getMessage().startsWith("/dev/full: cannot write (No space left on device); the 0"
                    + " ops written before are kept"), first.getMessage()); // a device cannot be cut back
            org.junit.jupiter.api.Assertions.assertSame(first, assertThrows(
                    HistoryWriter.WriteFailed.class, () -> w.append(op)), "the same failure, nothing written");
        }
    }

    /**
     * A thread interrupted while it records (the nemesis, stopped at the end of the workers) neither fails nor stops
     * the others: a channel would have been closed under every writer (ClosedByInterruptException in a suite run).
     */
    @Test
    void anInterruptedRecorderLeavesTheHistoryWritable() throws Exception {
        Path file = dir.resolve("h.jsonl");
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Thread t = new Thread(() -> {
                Thread.currentThread().interrupt();
                try {
                    w.append(Op.of(OpType.INVOKE, 1, 0, Fn.ACQUIRE, "/l", null));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic
                    .AtomicReference<>();
            t.setUncaughtExceptionHandler((th, e) -> failed.set(e));
            t.start();
            t.join();
            assertEquals(null, failed.get(), "the interrupted thread's write");
            w.append(Op.of(OpType.OK, 2, 0, Fn.ACQUIRE, "/l", null));
        }
        assertEquals(2, JsonlHistoryReader.read(file).size());
    }
}
