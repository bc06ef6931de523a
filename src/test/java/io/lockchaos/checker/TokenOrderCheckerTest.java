package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenOrderCheckerTest {
    private final List<Op> ops = new ArrayList<>();
    private long t;

    /** A whole hold by {@code p}: acquire granted with this token and sequence number, then released. */
    private void hold(int p, long token, long seq) {
        ops.add(Op.of(OpType.INVOKE, t++, p, Fn.ACQUIRE, "/l", null));
        ops.add(Op.of(OpType.OK, t++, p, Fn.ACQUIRE, "/l", Map.of("node", "/l/_c_x-lock-" + String.format("%010d", seq),
                "token", token, "session", 1L + p, "owner", 1L + p, "seq", seq)));
        ops.add(Op.of(OpType.INVOKE, t++, p, Fn.RELEASE, "/l", null));
        ops.add(Op.of(OpType.OK, t++, p, Fn.RELEASE, "/l", null));
    }

    @Test
    void aSequenceRestartIsANoteAndATokenThatDoesNotGrowAViolation() {
        hold(0, 100, 0);
        hold(1, 105, 1);
        hold(0, 110, 0); // the parent was reaped and made again: numbering starts over, the czxid grows
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(Verdict.VALID, r.verdict());
        assertEquals(1L, r.stats().get("sequence_restarts"));
        assertEquals(0L, r.stats().get("token_regressions"));
        hold(1, 104, 1); // a token lower than one of a hold that had ended
        r = new TokenOrderChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(Verdict.INVALID, r.verdict());
        assertEquals(1L, r.stats().get("token_regressions"));
        Anomaly a = r.anomalies().stream().filter(x -> x.kind() == AnomalyKind.TOKEN_REGRESSION).findFirst()
                .orElseThrow();
        assertEquals(110L, a.details().get("earlier_token"));
        assertEquals(104L, a.details().get("token"));
    }

    @Test
    void overlappingAsksAreNotOrdered() {
        // process 1 asks while process 0 holds: their order is the lock's to choose, not the history's
        ops.add(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "/l", null));
        ops.add(Op.of(OpType.OK, 1, 0, Fn.ACQUIRE, "/l", Map.of("node", "/l/a", "token", 50L, "session", 1L,
                "owner", 1L, "seq", 3L)));
        ops.add(Op.of(OpType.INVOKE, 2, 1, Fn.ACQUIRE, "/l", null));
        ops.add(Op.of(OpType.INVOKE, 3, 0, Fn.RELEASE, "/l", null));
        ops.add(Op.of(OpType.OK, 4, 0, Fn.RELEASE, "/l", null));
        ops.add(Op.of(OpType.OK, 5, 1, Fn.ACQUIRE, "/l", Map.of("node", "/l/b", "token", 40L, "session", 2L,
                "owner", 2L, "seq", 1L)));
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(false, r.checked(), r.toString());
    }

    @Test
    void zeroIsATokenAndASequenceNumberNotTheirAbsence() {
        hold(0, 0, 0);
        hold(1, 0, 0);
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(1L, r.stats().get("token_regressions"), r.toString());
        assertEquals(1L, r.stats().get("sequence_restarts"), r.toString());
    }

    @Test
    void ofEqualEarlierTokensTheFirstHoldIsNamed() {
        hold(0, 5, 1);
        hold(1, 5, 1); // itself a regression against process 0
        hold(2, 3, 0);
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(History.ofValid(ops));
        for (Anomaly a : r.anomalies()) {
            assertEquals(0, a.details().get("earlier_process"), a.toString());
        }
        assertEquals(4, r.anomalies().size(), r.toString());
    }

    @Test
    void aGrantAskedForBeforeAnotherHoldEndedIsNotOrderedAfterItWhateverItsGrantPosition() {
        // process 0 asks first, process 2's hold ends, process 1 asks, is granted and releases, then process 0 is
        // granted: only process 1's grant was asked for after process 2's hold had ended
        ops.add(Op.of(OpType.INVOKE, 0, 2, Fn.ACQUIRE, "/l", null));
        ops.add(Op.of(OpType.OK, 1, 2, Fn.ACQUIRE, "/l", grant("/l/x", 50, 1)));
        ops.add(Op.of(OpType.INVOKE, 2, 0, Fn.ACQUIRE, "/l", null));
        ops.add(Op.of(OpType.INVOKE, 3, 2, Fn.RELEASE, "/l", null));
        ops.add(Op.of(OpType.OK, 4, 2, Fn.RELEASE, "/l", null));
        ops.add(Op.of(OpType.INVOKE, 5, 1, Fn.ACQUIRE, "/l", null));
        ops.add(Op.of(OpType.OK, 6, 1, Fn.ACQUIRE, "/l", grant("/l/b", 60, 3)));
        ops.add(Op.of(OpType.INVOKE, 7, 1, Fn.RELEASE, "/l", null));
        ops.add(Op.of(OpType.OK, 8, 1, Fn.RELEASE, "/l", null));
        ops.add(Op.of(OpType.OK, 9, 0, Fn.ACQUIRE, "/l", grant("/l/a", 40, 2)));
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(1L, r.stats().get("ordered_grants"), r.toString());
        assertEquals(Verdict.VALID, r.verdict(), r.toString());
    }

    private static Map<String, Object> grant(String node, long token, long seq) {
        return Map.of("node", node, "token", token, "session", 1L, "owner", 1L, "seq", seq);
    }
}
