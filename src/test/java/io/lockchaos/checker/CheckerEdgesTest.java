package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The edges of each dedicated checker's rules, one case per edge: equal tokens, token zero, a bound met exactly, a
 * hold that starts just before a probe fails, values of another boxed width. Mutation testing found each of these
 * unpinned; every case says which side of its edge the checker must be on, and why.
 */
class CheckerEdgesTest {
    private static final long MS = 1_000_000L;
    private final List<Op> ops = new ArrayList<>();

    private void op(OpType type, long time, int p, Fn f, Object value) {
        ops.add(Op.of(type, time, p, f, "/l", value));
    }

    private History history() {
        return History.ofValid(ops);
    }

    private static long stat(CheckResult r, String name) {
        return ((Number) r.stats().get(name)).longValue();
    }

    private static Map<String, Object> grant(long token, long seq) {
        return Map.of("node", "/l/n" + seq, "token", token, "session", 1L, "owner", 1L, "seq", seq);
    }

    // ---- fencing ----

    private void write(int p, long token, boolean accepted) {
        op(OpType.INVOKE, ops.size(), p, Fn.WRITE, Map.of("token", token));
        op(OpType.OK, ops.size(), p, Fn.WRITE, Map.of("token", token, "accepted", accepted));
    }

    @Test
    void fencingJudgesTokenZeroAndLetsAnEqualTokenThrough() {
        write(0, 5, true);
        write(1, 5, true); // the same holder's token again: not older than the newest accepted
        CheckResult r = new FencingChecker().check(history());
        assertEquals(Verdict.VALID, r.verdict(), r.toString());
        assertEquals(2L, stat(r, "accepted"));
        write(2, 0, true); // token zero is a token: older than 5
        r = new FencingChecker().check(history());
        assertEquals(Verdict.INVALID, r.verdict(), r.toString());
        assertEquals(1L, stat(r, "stale_accepted"));
        assertEquals("fencing", r.checker());
    }

    @Test
    void aRejectedTokenEqualToTheNewestAcceptedWasFresh() {
        write(0, 0, true);
        write(1, 0, false); // the newest accepted is 0 and so is this one: refusing it was wrong
        write(2, 0, false);
        op(OpType.INVOKE, ops.size(), 3, Fn.WRITE, Map.of("token", 1L));
        op(OpType.INFO, ops.size(), 3, Fn.WRITE, null);
        CheckResult r = new FencingChecker().check(history());
        assertEquals(2L, stat(r, "rejected_not_stale"));
        assertEquals(0L, stat(r, "rejected_stale"));
        assertEquals(1L, stat(r, "indeterminate"));
    }

    @Test
    void writesAreComparedInTheOrderTheyCompleted() {
        op(OpType.INVOKE, 0, 0, Fn.WRITE, Map.of("token", 5L));
        op(OpType.INVOKE, 1, 1, Fn.WRITE, Map.of("token", 9L));
        op(OpType.OK, 2, 1, Fn.WRITE, Map.of("token", 9L, "accepted", true));
        op(OpType.INVOKE, 3, 2, Fn.WRITE, Map.of("token", 7L)); // after 9 was accepted, while 5 is in flight
        op(OpType.OK, 4, 2, Fn.WRITE, Map.of("token", 7L, "accepted", true));
        op(OpType.OK, 5, 0, Fn.WRITE, Map.of("token", 5L, "accepted", true));
        CheckResult r = new FencingChecker().check(history());
        assertEquals(1L, stat(r, "stale_accepted"), r.toString());
        assertEquals(List.of(4L, 2L), r.anomalies().get(0).ops(), "the stale write's completion, then the newer one's");
    }

    // ---- token order ----

    private void hold(int p, long token, long seq) {
        op(OpType.INVOKE, ops.size(), p, Fn.ACQUIRE, null);
        op(OpType.OK, ops.size(), p, Fn.ACQUIRE, grant(token, seq));
        op(OpType.INVOKE, ops.size(), p, Fn.RELEASE, null);
        op(OpType.OK, ops.size(), p, Fn.RELEASE, null);
    }

    @Test
    void tokenZeroAndEqualTokensAreJudged() {
        hold(0, 0, 0);
        hold(1, 0, 0); // neither the token nor the sequence number grew
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(history());
        assertEquals("token-order", r.checker());
        assertEquals(1L, stat(r, "ordered_grants"));
        assertEquals(1L, stat(r, "token_regressions"));
        assertEquals(1L, stat(r, "sequence_restarts"));
        assertEquals(2, r.anomalies().size(), r.toString());
        assertTrue(r.anomalies().stream().anyMatch(a -> a.kind() == AnomalyKind.SEQUENCE_RESTART));
    }

    @Test
    void theEarlierHoldNamedIsTheFirstWithTheHighestToken() {
        hold(0, 5, 1);
        hold(1, 5, 1);
        hold(2, 3, 2);
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(history());
        assertEquals(2L, stat(r, "ordered_grants"));
        Anomaly last = r.anomalies().stream().filter(a -> a.details().get("process").equals(2)).findFirst()
                .orElseThrow(() -> new AssertionError(r.toString()));
        assertEquals(0, last.details().get("earlier_process"));
    }

    @Test
    void holdsAreTakenInTheOrderTheyEnded() {
        op(OpType.INVOKE, 0, 0, Fn.ACQUIRE, null);
        op(OpType.OK, 1, 0, Fn.ACQUIRE, grant(1, 1));
        op(OpType.INVOKE, 2, 1, Fn.ACQUIRE, null);
        op(OpType.OK, 3, 1, Fn.ACQUIRE, grant(5, 2));
        op(OpType.INVOKE, 4, 1, Fn.RELEASE, null);
        op(OpType.OK, 5, 1, Fn.RELEASE, null);
        op(OpType.INVOKE, 6, 2, Fn.ACQUIRE, null); // asks after 1's hold (token 5) ended, while 0 still holds
        op(OpType.INVOKE, 7, 0, Fn.RELEASE, null);
        op(OpType.OK, 8, 0, Fn.RELEASE, null);
        op(OpType.OK, 9, 2, Fn.ACQUIRE, grant(3, 3));
        CheckResult r = new TokenOrderChecker(Recipe.MUTEX).check(history());
        assertEquals(1L, stat(r, "token_regressions"), r.toString());
    }

    // ---- acquire timeouts ----

    @Test
    void aTimeoutMetExactlyIsKeptAndZeroIsATimeout() {
        op(OpType.INVOKE, 10 * MS, 0, Fn.ACQUIRE, Map.of("timeout_ms", 100L));
        op(OpType.FAIL, 110 * MS, 0, Fn.ACQUIRE, null); // exactly 100 ms: kept
        op(OpType.INVOKE, 200 * MS, 1, Fn.ACQUIRE, Map.of("timeout_ms", 0L));
        op(OpType.OK, 203 * MS, 1, Fn.ACQUIRE, grant(1, 1)); // a zero timeout is one; 3 ms overruns it
        CheckResult r = new AcquireTimeoutChecker(0).check(history());
        assertEquals("acquire-timeouts", r.checker());
        assertEquals(2L, stat(r, "measured"));
        assertEquals(1L, stat(r, "overruns"));
        assertEquals(3L, stat(r, "longest_overrun_ms"));
        Anomaly a = r.anomalies().get(0);
        assertEquals(3L, a.details().get("took_ms"));
        assertEquals("ok", a.details().get("outcome"));
        assertEquals(List.of(2L, 3L), a.ops());
    }

    @Test
    void oneStillWaitingAtTheEndIsJudgedOnlyOnceItWaitedTooLong() {
        op(OpType.INVOKE, 10 * MS, 0, Fn.ACQUIRE, Map.of("timeout_ms", 50L));
        op(OpType.INVOKE, 20 * MS, 1, Fn.READ, null);
        op(OpType.OK, 60 * MS, 1, Fn.READ, null); // the history ends 50 ms after the ask: not yet too long
        CheckResult r = new AcquireTimeoutChecker(0).check(history());
        assertFalse(r.checked(), r.toString());
        op(OpType.INVOKE, 61 * MS, 1, Fn.READ, null);
        op(OpType.OK, 70 * MS, 1, Fn.READ, null);
        r = new AcquireTimeoutChecker(0).check(history());
        assertEquals(1L, stat(r, "overruns"), r.toString());
        assertEquals(List.of(0L), r.anomalies().get(0).ops());
        assertEquals(60L, r.anomalies().get(0).details().get("took_ms"));
        assertTrue(r.anomalies().get(0).details().get("outcome").toString().startsWith("none"));
    }

    // ---- fairness ----

    @Test
    void equalQueuePositionsAreNotAnOvertakeAndWaitsAreAveraged() {
        op(OpType.INVOKE, 0, 0, Fn.ACQUIRE, null);
        op(OpType.OK, 10, 0, Fn.ACQUIRE, grant(4, 4));
        op(OpType.INVOKE, 20, 0, Fn.RELEASE, null);
        op(OpType.OK, 30, 0, Fn.RELEASE, null);
        op(OpType.INVOKE, 40, 1, Fn.ACQUIRE, null);
        op(OpType.OK, 70, 1, Fn.ACQUIRE, grant(4, 4));
        CheckResult r = new FairnessChecker(Recipe.REENTRANT_MUTEX).check(history());
        assertEquals(Verdict.VALID, r.verdict(), r.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> key = (Map<String, Object>) ((Map<String, Object>) r.stats().get("per_key")).get("/l");
        assertEquals(2, key.get("grants"));
        assertEquals(20L, key.get("mean_wait_ns"));
        assertEquals(30L, key.get("max_wait_ns"));
        op(OpType.INVOKE, 80, 1, Fn.RELEASE, null);
        op(OpType.OK, 81, 1, Fn.RELEASE, null);
        op(OpType.INVOKE, 90, 2, Fn.ACQUIRE, null);
        op(OpType.OK, 91, 2, Fn.ACQUIRE, grant(3, 3)); // queued before both: overtaken by the one at 4
        r = new FairnessChecker(Recipe.REENTRANT_MUTEX).check(history());
        assertEquals(1L, stat(r, "overtakes"), r.toString());
    }

    // ---- leaks ----

    private void heal() {
        ops.add(Op.of(OpType.INVOKE, ops.size(), Op.NEMESIS, Fn.HEAL, null, null));
        ops.add(Op.of(OpType.INFO, ops.size(), Op.NEMESIS, Fn.HEAL, null, null));
    }

    @Test
    void aGrantJustBeforeAProbeFailsExplainsTheFailure() {
        heal();
        op(OpType.INVOKE, 2, 1, Fn.ACQUIRE, null);
        op(OpType.INVOKE, 3, 0, Fn.ACQUIRE, null);
        op(OpType.OK, 4, 1, Fn.ACQUIRE, grant(1, 1)); // the last position before the probe's failure
        op(OpType.FAIL, 5, 0, Fn.ACQUIRE, null);
        CheckResult r = new LeakChecker(Recipe.MUTEX).check(history());
        assertEquals(0L, stat(r, "leaked"), r.toString());
        assertEquals(2L, stat(r, "acquires_after_marker"));
    }

    @Test
    void anAcquireInFlightJustBeforeAProbeFailsMakesTheLeakSuspect() {
        heal();
        op(OpType.INVOKE, 2, 0, Fn.ACQUIRE, null);
        op(OpType.INVOKE, 3, 1, Fn.ACQUIRE, null); // never answered: it may hold the lock from here on
        op(OpType.FAIL, 4, 0, Fn.ACQUIRE, null);
        CheckResult r = new LeakChecker(Recipe.MUTEX).check(history());
        assertEquals(1L, stat(r, "leaked"), r.toString());
        assertEquals(Severity.SUSPECT, r.anomalies().get(0).severity());
    }

    @Test
    void aReacquireAfterTheHealIsNotAProbe() {
        op(OpType.INVOKE, 0, 0, Fn.ACQUIRE, null);
        op(OpType.OK, 1, 0, Fn.ACQUIRE, grant(1, 1));
        heal();
        op(OpType.INVOKE, 4, 0, Fn.ACQUIRE, null);
        op(OpType.FAIL, 5, 0, Fn.ACQUIRE, null);
        CheckResult r = new LeakChecker(Recipe.MUTEX).check(history());
        assertEquals(1L, stat(r, "reacquires_after_marker"), r.toString());
        assertEquals(0L, stat(r, "acquires_after_marker"));
    }

    // ---- lost updates ----

    @Test
    void elementsCompareByValueAndAFailedAddStillNamesItsSet() {
        op(OpType.INVOKE, 0, 0, Fn.ADD, 1);
        op(OpType.FAIL, 1, 0, Fn.ADD, 1);
        op(OpType.INVOKE, 2, 0, Fn.ADD, (short) 2);
        op(OpType.OK, 3, 0, Fn.ADD, (short) 2);
        op(OpType.INVOKE, 4, 1, Fn.ADD, (byte) 3);
        op(OpType.OK, 5, 1, Fn.ADD, (byte) 3);
        op(OpType.INVOKE, 6, 0, Fn.READ, null);
        op(OpType.OK, 7, 0, Fn.READ, List.of(2L, 3L));
        CheckResult r = new LostUpdateChecker(Recipe.MUTEX).check(history());
        assertEquals(Verdict.VALID, r.verdict(), r.toString());
        assertEquals(2L, stat(r, "acknowledged_adds"));
        assertEquals(0L, stat(r, "unexpected"));
    }

    @Test
    void aLostAddNamesTheHoldersThatOverlappedIt() {
        op(OpType.INVOKE, 0, 1, Fn.ACQUIRE, null);
        op(OpType.OK, 1, 1, Fn.ACQUIRE, grant(1, 1));
        op(OpType.INVOKE, 2, 0, Fn.ADD, 7);
        op(OpType.OK, 3, 0, Fn.ADD, 7);
        op(OpType.INVOKE, 4, 1, Fn.RELEASE, null);
        op(OpType.OK, 5, 1, Fn.RELEASE, null);
        op(OpType.INVOKE, 6, 0, Fn.READ, null);
        op(OpType.OK, 7, 0, Fn.READ, List.of());
        CheckResult r = new LostUpdateChecker(Recipe.MUTEX).check(history());
        assertEquals(1L, stat(r, "lost"), r.toString());
        assertEquals(List.of(1), r.anomalies().get(0).details().get("overlapping_holders"));
        assertEquals(0L, r.anomalies().get(0).details().get("process"));
    }

    // ---- holds ----

    @Test
    void tokenZeroIsAQueuePositionAndAnOpWithoutModeNamesNone() {
        assertEquals(new Hold.QueuePosition(Hold.QueuePosition.Kind.TOKEN, 0, -1),
                new Hold.Grant("/l/n5", 0, 1, 1, 5).position(), "the czxid, even when it is 0");
        assertEquals(Hold.QueuePosition.NONE, new Hold.Grant("/l/n5", -1, 1, 1, 5).position(),
                "no token and no parent: a bare sequence number compares with nothing");
        Hold.QueuePosition seq = new Hold.Grant("/l/n5", -1, 1, 1, 5, false, 77).position();
        assertEquals(new Hold.QueuePosition(Hold.QueuePosition.Kind.SEQUENCE, 5, 77), seq);
        assertNotEquals(seq.group(), new Hold.Grant("/l/n6", -1, 1, 1, 6, false, 78).position().group(),
                "sequence numbers of two incarnations of the parent do not compare");
        assertNotEquals(seq.group(), new Hold.Grant("/l/n6", 9, 1, 1, 6).position().group(),
                "nor with tokens");
        assertFalse(Hold.Mode.named(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "/l", null)));
        assertTrue(Hold.Mode.named(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "/l", Map.of("mode", "read"))));
    }
}
