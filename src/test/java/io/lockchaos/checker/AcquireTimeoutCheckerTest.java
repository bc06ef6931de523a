package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AcquireTimeoutCheckerTest {
    private static final long MS = 1_000_000L;
    private final List<Op> ops = new ArrayList<>();

    private void acquire(int p, long invokeMs, long doneMs, OpType outcome, long timeoutMs) {
        ops.add(Op.of(OpType.INVOKE, invokeMs * MS, p, Fn.ACQUIRE, "/l", Map.of("timeout_ms", timeoutMs)));
        ops.add(new Op(-1, doneMs * MS, outcome, p, Fn.ACQUIRE, "/l", outcome == OpType.OK ? Map.of("node", "/l/n",
                "token", 5L, "session", 1L, "owner", 1L, "seq", 0L) : null, outcome == OpType.FAIL ? "timeout" : null));
        if (outcome == OpType.OK) {
            ops.add(Op.of(OpType.INVOKE, (doneMs + 1) * MS, p, Fn.RELEASE, "/l", null));
            ops.add(Op.of(OpType.OK, (doneMs + 2) * MS, p, Fn.RELEASE, "/l", null));
        }
    }

    @Test
    void anAcquireReturningPastItsTimeoutAndSlackIsAViolationWhateverItsOutcome() {
        acquire(0, 0, 900, OpType.OK, 1000);           // in time
        acquire(1, 0, 1400, OpType.FAIL, 1000);        // within the 500 ms slack
        acquire(2, 0, 6000, OpType.FAIL, 1000);        // overrun: timed out, late
        acquire(3, 10, 4000, OpType.INFO, 1000);       // overrun: an exception is a return too
        CheckResult r = new AcquireTimeoutChecker(500).check(History.ofValid(ops));
        assertEquals(Verdict.INVALID, r.verdict());
        assertEquals(4L, r.stats().get("measured"));
        assertEquals(2L, r.stats().get("overruns"));
        assertEquals(6000L, r.stats().get("longest_overrun_ms"));
        assertEquals(List.of(2, 3), r.anomalies().stream().map(a -> (Integer) a.details().get("process")).toList());
    }

    @Test
    void withoutTimeoutsThereIsNothingToCheck() {
        ops.add(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "/l", null));
        ops.add(Op.of(OpType.OK, 5 * MS, 0, Fn.ACQUIRE, "/l", Map.of("node", "/l/n", "token", 5L, "session", 1L,
                "owner", 1L, "seq", 0L)));
        assertFalse(new AcquireTimeoutChecker(0).check(History.ofValid(ops)).checked());
    }

    @Test
    void aRunWithoutAnyLockOperationIsUnknownThoughItsInspectionIsClean() {
        ops.add(Op.of(OpType.OK, 0, 0, Fn.STATE, null, Map.of("state", "CONNECTED", "session", 1L)));
        ops.add(Op.of(OpType.INVOKE, 4 * MS, Op.NEMESIS, Fn.INSPECT, null, null));
        ops.add(Op.of(OpType.OK, 5 * MS, Op.NEMESIS, Fn.INSPECT, null, Map.of("nodes", List.of())));
        History h = History.ofValid(ops);
        // the clean inspection alone makes a hand-made history valid (it is judged by what is in it) ...
        assertEquals(Verdict.VALID, Checkers.forRecipe(Recipe.MUTEX).check(h).verdict());
        // ... but a run that never took the lock has not tested it
        CheckResult run = Checkers.forRun(Recipe.MUTEX).check(h);
        assertEquals(Verdict.UNKNOWN, run.verdict());
        assertEquals("mutual-exclusion had nothing to check: no lock operations (acquire or release)",
                run.stats().get("unknown_because"));
    }
}
