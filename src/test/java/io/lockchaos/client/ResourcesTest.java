package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.lockchaos.checker.LostUpdateChecker;
import io.lockchaos.checker.Recipe;
import io.lockchaos.checker.Verdict;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The set a lock protects in this JVM: read whole, written back whole, so two holders at once lose an add. */
class ResourcesTest {
    @TempDir
    Path dir;

    @Test
    void anInsertKeepsTheOrderAndLeavesTheReadArrayAlone() {
        long[] s = {100, 300};
        long[] t = Resources.with(s, 200);
        assertArrayEquals(new long[] {100, 200, 300}, t);
        assertArrayEquals(new long[] {100, 300}, s, "a holder's read does not change under it");
        assertArrayEquals(new long[] {5}, Resources.with(new long[0], 5));
        assertArrayEquals(new long[] {100, 300, 400}, Resources.with(s, 400));
        assertSame(t, Resources.with(t, 200), "already there");
    }

    @Test
    void oneHolderAfterAnotherKeepsEveryAddAndTwoAtOnceLoseOne() throws Exception {
        Path file = dir.resolve("h.jsonl");
        Resources res = new Resources("/k");
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Recorder rec = new Recorder(w);
            res.criticalSection(rec, 0, -1, 0, () -> true);
            res.criticalSection(rec, 1, -1, 0, () -> true);
            // two holders at once: both read the same set, each writes back its own add
            CountDownLatch bothRead = new CountDownLatch(2);
            Thread a = new Thread(() -> overlap(res, rec, 2, bothRead));
            Thread b = new Thread(() -> overlap(res, rec, 3, bothRead));
            a.start();
            b.start();
            a.join();
            b.join();
            res.finalRead(rec, Op.FIRST_FINAL_PROCESS);
        }
        History h = JsonlHistoryReader.read(file);
        Op read = h.ops().get(h.ops().size() - 1);
        assertEquals(3, ((List<?>) read.value()).size(), "four adds, one lost: " + read.value());
        assertEquals(Verdict.INVALID, new LostUpdateChecker(Recipe.MUTEX).check(h).verdict());
        assertEquals(1L, new LostUpdateChecker(Recipe.MUTEX).check(h).stats().get("lost"));
    }

    /**
     * A lock's own durable store whose write times out: the add is info and the caller is told, so that the worker
     * retires the process rather than release under it (a history whose retired process acts again is malformed).
     */
    @Test
    void aDurableWriteWhoseOutcomeIsUnknownIsInfoAndRetiresTheProcess() throws Exception {
        Path file = dir.resolve("h.jsonl");
        Resources res = new Resources("/k");
        io.lockchaos.api.TransactionalSet timesOut = new io.lockchaos.api.TransactionalSet() {
            @Override
            public List<Long> readSet(String name) {
                return List.of();
            }

            @Override
            public void writeSet(String name, List<Long> elements) throws Exception {
                throw new java.util.concurrent.TimeoutException();
            }

            @Override
            public boolean durableOnWrite() {
                return true;
            }
        };
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Recorder rec = new Recorder(w);
            org.junit.jupiter.api.Assertions.assertThrows(Resources.IndeterminateWrite.class, () ->
                    res.criticalSection(rec, 0, -1, 0, () -> true, () -> { }, () -> Long.MAX_VALUE, true, timesOut,
                            null));
        }
        Op info = JsonlHistoryReader.read(file).ops().get(1);
        assertEquals(io.lockchaos.history.OpType.INFO, info.type());
        assertEquals("unknown: java.util.concurrent.TimeoutException", info.error());
    }

    /**
     * A commit that took and whose answer was lost, retried by the worker's next process with the same element: the
     * tutorial's retry appends it again, so the final read holds it twice; the retry that checks its read first does
     * not. Nothing is retried unless asked.
     */
    @Test
    void aRetryAfterAnUnknownCommitAddsTheSameElementAgainUnlessTheReadHasIt() throws Exception {
        for (AfterUnknownCommit how : AfterUnknownCommit.values()) {
            List<Long> table = new java.util.ArrayList<>();
            int[] writes = {0};
            io.lockchaos.api.TransactionalSet firstAnswerLost = new io.lockchaos.api.TransactionalSet() {
                @Override
                public List<Long> readSet(String name) {
                    return List.copyOf(table);
                }

                @Override
                public void writeSet(String name, List<Long> elements) throws Exception {
                    table.clear();
                    table.addAll(elements); // the commit takes
                    if (writes[0]++ == 0) {
                        throw new java.net.SocketTimeoutException("the answer never came");
                    }
                }

                @Override
                public boolean durableOnWrite() {
                    return true;
                }
            };
            Path file = dir.resolve(how.wireName() + ".jsonl");
            Resources res = new Resources("/k");
            Resources.Retry retry = new Resources.Retry(how);
            try (HistoryWriter w = HistoryWriter.create(file)) {
                Recorder rec = new Recorder(w);
                org.junit.jupiter.api.Assertions.assertThrows(Resources.IndeterminateWrite.class, () ->
                        res.criticalSection(rec, 0, -1, 0, () -> true, () -> { }, () -> Long.MAX_VALUE, false,
                                firstAnswerLost, retry));
                res.criticalSection(rec, 3, -1, 0, () -> true, () -> { }, () -> Long.MAX_VALUE, false,
                        firstAnswerLost, retry);
                res.finalRead(rec, 9, firstAnswerLost);
            }
            List<Op> ops = JsonlHistoryReader.read(file).ops();
            assertEquals(0L, ((Number) ops.get(0).value()).longValue(), how.wireName());
            assertEquals(how == AfterUnknownCommit.RETIRE ? 100_003L : 0L, ((Number) ops.get(2).value()).longValue(),
                    how + ": the next add's element");
            assertEquals(switch (how) {
                case RETIRE -> List.of(0L, 100_003L);
                case RETRY -> List.of(0L, 0L);
                case RETRY_IF_ABSENT -> List.of(0L);
            }, ((List<?>) ops.get(5).value()).stream().map(o -> ((Number) o).longValue()).toList(), how.wireName());
        }
    }

    private static void overlap(Resources res, Recorder rec, int process, CountDownLatch bothRead) {
        int[] checks = {0};
        try {
            // its first check comes before the read; the next ones, in the hold between the read and the write,
            // wait for the other holder's read
            res.criticalSection(rec, process, -1, 0, () -> {
                if (checks[0]++ == 1) {
                    bothRead.countDown();
                    try {
                        bothRead.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return true;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
    /**
     * Where the critical section waits at its danger point: a leased grant's after the read and the hold, just before
     * the write-back; a fenced or session grant's before the read (LockWorker passes {@code kind == LEASED}).
     */
    @Test
    void aLeasedGrantsDangerPointComesBetweenTheReadAndTheWriteBack() throws Exception {
        for (io.lockchaos.api.Grant.Kind kind : io.lockchaos.api.Grant.Kind.values()) {
            List<String> seen = new java.util.ArrayList<>();
            io.lockchaos.api.TransactionalSet store = new io.lockchaos.api.TransactionalSet() {
                @Override
                public List<Long> readSet(String name) {
                    seen.add("read");
                    return List.of();
                }

                @Override
                public void writeSet(String name, List<Long> elements) {
                    seen.add("write");
                }

                @Override
                public boolean durableOnWrite() {
                    return true;
                }
            };
            try (HistoryWriter w = HistoryWriter.create(dir.resolve(kind + ".jsonl"))) {
                new Resources("/k").criticalSection(new Recorder(w), 0, -1, 0, () -> true, () -> seen.add("danger"),
                        () -> Long.MAX_VALUE, LockWorker.dangerAfterHold(kind), store, null);
            }
            assertEquals(kind == io.lockchaos.api.Grant.Kind.LEASED ? List.of("read", "danger", "write")
                    : List.of("danger", "read", "write"), seen, kind.toString());
        }
    }
}
