package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.checker.LostUpdateChecker;
import io.lockchaos.checker.Recipe;
import io.lockchaos.checker.Verdict;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock that keeps its data ({@link TransactionalSet}): the worker reads and writes the set through it, records the
 * add on the holder's transaction process so that it spans the release that commits it, and completes it with the
 * commit's outcome; the final read comes from the lock's store.
 */
class TransactionalSetTest {
    @TempDir
    Path dir;

    /** An in-memory lock whose release commits what its holder staged; {@code failRelease} makes releases throw. */
    private static final class Committing implements LockClient, TransactionalSet {
        private final TreeSet<Long> committed;
        private final boolean failRelease;
        private List<Long> staged;

        Committing(TreeSet<Long> committed, boolean failRelease) {
            this.committed = committed;
            this.failRelease = failRelease;
        }

        @Override
        public Grant acquire(Duration timeout) {
            return Grant.of("/k", -1, 1);
        }

        @Override
        public boolean release() throws Exception {
            if (failRelease) {
                staged = null;
                throw new java.io.IOException("connection lost before the commit's answer");
            }
            synchronized (committed) {
                if (staged != null) {
                    committed.clear();
                    committed.addAll(staged);
                }
            }
            staged = null;
            return true;
        }

        @Override
        public List<Long> readSet(String name) {
            synchronized (committed) {
                return new ArrayList<>(committed);
            }
        }

        @Override
        public void writeSet(String name, List<Long> elements) {
            staged = elements;
        }

        @Override
        public void close() {
        }
    }

    private History run(boolean failRelease, TreeSet<Long> store) throws Exception {
        Path file = dir.resolve("h" + failRelease + ".jsonl");
        Resources res = new Resources("/k");
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Recorder rec = new Recorder(w);
            io.lockchaos.workload.Generator g = io.lockchaos.workload.Generators.limit(2,
                    io.lockchaos.workload.Generators.repeat(io.lockchaos.workload.Cycle.of(100, 5)));
            new LockWorker(rec, "/k", 0, 1, p -> new Committing(store, failRelease), g, 0).resources(res).run();
            res.finalRead(rec, Op.FIRST_FINAL_PROCESS, new Committing(store, false));
        }
        return JsonlHistoryReader.read(file);
    }

    @Test
    void theAddSpansTheReleaseThatCommitsItOnTheTransactionsProcess() throws Exception {
        TreeSet<Long> store = new TreeSet<>();
        History h = run(false, store);
        List<String> seen = new ArrayList<>();
        for (Op op : h.ops()) {
            if (op.f() == Fn.ADD || op.f() == Fn.RELEASE) {
                seen.add(op.process() + " " + op.f().name().toLowerCase() + " " + op.type().name().toLowerCase());
            }
        }
        int t0 = Op.transactionOf(0);
        // the second cycle is process 0's again: every release committed
        assertEquals(List.of(t0 + " add invoke", "0 release invoke", "0 release ok", t0 + " add ok",
                t0 + " add invoke", "0 release invoke", "0 release ok", t0 + " add ok"), seen);
        assertEquals(2, store.size(), "both adds landed in the lock's store: " + store);
        Op read = h.ops().get(h.ops().size() - 1);
        assertEquals(List.copyOf(store), read.value(), "the final read is the store's");
        assertEquals(Verdict.VALID, new LostUpdateChecker(Recipe.MUTEX).check(h).verdict());
        assertEquals(2L, new LostUpdateChecker(Recipe.MUTEX).check(h).stats().get("acknowledged_adds"));
    }

    @Test
    void aReleaseOfUnknownOutcomeLeavesItsAddUnknown() throws Exception {
        History h = run(true, new TreeSet<>());
        Op add = null;
        for (Op op : h.ops()) {
            if (op.f() == Fn.ADD && op.type() != OpType.INVOKE) {
                add = op;
                break;
            }
        }
        assertEquals(OpType.INFO, add.type(), String.valueOf(add));
        assertTrue(add.error().startsWith("the commit's outcome is unknown"), add.error());
        assertEquals(Verdict.VALID, new LostUpdateChecker(Recipe.MUTEX).check(h).verdict(),
                "an unknown add may be absent");
    }

    @Test
    void aTransactionProcessMapsBackToItsHolder() {
        assertEquals(7, Op.holderOf(Op.transactionOf(7)));
        assertEquals(7, Op.holderOf(7));
        assertEquals(Op.FIRST_FINAL_PROCESS, Op.holderOf(Op.FIRST_FINAL_PROCESS));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Op.transactionOf(Op.FIRST_TRANSACTION_PROCESS));
    }
}
