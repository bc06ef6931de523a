package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

class MutualExclusionCheckerTest {
    private final List<Op> ops = new ArrayList<>();

    private void op(long t, OpType type, int p, Fn f, Object value) {
        ops.add(Op.of(type, t, p, f, "/l", value));
    }

    private void op(long t, OpType type, int p, Fn f, Object value, String error) {
        ops.add(new Op(-1, t, type, p, f, "/l", value, error));
    }

    private void state(long t, int p, String s, long session) {
        ops.add(Op.of(OpType.OK, t, p, Fn.STATE, null, Map.of("state", s, "session", session)));
    }

    private static Map<String, Object> grant(long session) {
        return Map.of("node", "/l/n", "token", 100 + session, "session", session, "owner", session, "seq", session);
    }

    @Test
    void classifiesAnOverlapFromTheFirstHoldersPointOfView() {
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        state(20, 0, "SUSPENDED", 1);
        state(30, 0, "LOST", 1);
        op(31, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(40, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        op(100, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(101, OpType.OK, 0, Fn.RELEASE, null);
        op(200, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(201, OpType.OK, 1, Fn.RELEASE, null);
        CheckResult r = new MutualExclusionChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(Verdict.INVALID, r.verdict());
        Anomaly a = r.anomalies().get(0);
        assertEquals(AnomalyKind.DOUBLE_HOLDER, a.kind());
        assertEquals(60L, a.details().get("overlap_ns"));
        assertEquals("before", a.details().get("first_notified"));
        assertEquals("ended", a.details().get("first_session_fate"));
        assertEquals(List.of(5L, 1L), a.ops(), "the second grant first, then the holder it overlapped");
    }

    @Test
    void aSessionLostAfterTheSecondGrantButWhileHeldEndedAndOneSeenLaterWasAlive() {
        // process 0's session 1 is reported LOST only after process 1's grant, but before process 0 stops believing
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(11, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(20, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        state(25, 0, "LOST", 1);
        op(30, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(31, OpType.FAIL, 0, Fn.RELEASE, null, LockHolds.NOT_HELD);
        // process 2 overlaps process 1, whose session 2 is seen alive afterwards (another grant on it)
        op(32, OpType.INVOKE, 2, Fn.ACQUIRE, null);
        op(40, OpType.OK, 2, Fn.ACQUIRE, grant(3));
        op(50, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(51, OpType.FAIL, 1, Fn.RELEASE, null, LockHolds.NOT_HELD);
        op(52, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(60, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        CheckResult r = new MutualExclusionChecker(Recipe.MUTEX).check(History.ofValid(ops));
        List<Anomaly> doubles = r.anomalies().stream().filter(a -> a.kind() == AnomalyKind.DOUBLE_HOLDER).toList();
        assertEquals("ended", doubles.get(0).details().get("first_session_fate"));
        assertEquals("alive", doubles.get(1).details().get("first_session_fate"));
    }

    @Test
    void anOverlapWithALiveSessionIsALockServiceBug() {
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(11, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(20, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        op(30, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(31, OpType.OK, 0, Fn.RELEASE, null);
        CheckResult r = new MutualExclusionChecker(Recipe.MUTEX).check(History.ofValid(ops));
        Anomaly a = r.anomalies().get(0);
        assertEquals("never", a.details().get("first_notified"));
        assertEquals("alive", a.details().get("first_session_fate"));
        assertEquals(10L, a.details().get("overlap_ns"));
        assertEquals(10L, r.stats().get("overlap_ns_total"));
    }

    @Test
    void aReleaseAfterADisconnectionIsNoSignOfALiveSession() {
        // a holder paused past its session: SUSPENDED, LOST and a new session come after the second grant, and its
        // release still says ok (Curator's release ignores a node already gone), which proves nothing of session 1
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(11, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(20, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        state(25, 0, "SUSPENDED", 1);
        op(30, OpType.INVOKE, 0, Fn.RELEASE, null);
        state(32, 0, "LOST", 0);
        state(33, 0, "RECONNECTED", 3);
        op(35, OpType.OK, 0, Fn.RELEASE, null);
        Anomaly a = new MutualExclusionChecker(Recipe.MUTEX).check(History.ofValid(ops)).anomalies().get(0);
        assertEquals("after", a.details().get("first_notified"));
        assertEquals("unknown", a.details().get("first_session_fate"));
        assertFalse(a.explanation().contains("lock-service bug"), a.explanation());
    }

    @Test
    void aGrantOnANodeAlreadyDeletedIsAnExpiredGrantAndExplainsTheDoubleHolder() {
        // etcd issue 11456: a paused waiter's lease expired while it waited; the holder's release woke the next
        // waiter and the paused one, whose answer named its key, already deleted, and arrived when it resumed
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(11, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(12, OpType.INVOKE, 2, Fn.ACQUIRE, null);
        op(20, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(21, OpType.OK, 0, Fn.RELEASE, null);
        op(22, OpType.OK, 2, Fn.ACQUIRE, grant(3));
        Map<String, Object> expired = new java.util.HashMap<>(grant(2));
        expired.put("node_gone", true);
        op(50, OpType.OK, 1, Fn.ACQUIRE, expired);
        op(51, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(52, OpType.FAIL, 1, Fn.RELEASE, null, "not-held");
        op(60, OpType.INVOKE, 2, Fn.RELEASE, null);
        op(61, OpType.OK, 2, Fn.RELEASE, null);
        CheckResult r = new MutualExclusionChecker(Recipe.lease("etcd-lock")).check(History.ofValid(ops));
        assertEquals(Verdict.INVALID, r.verdict());
        assertEquals(1L, r.stats().get("expired_grants"));
        Anomaly grant = r.anomalies().stream().filter(a -> a.kind() == AnomalyKind.EXPIRED_GRANT).findFirst()
                .orElseThrow();
        assertEquals(List.of(7L), grant.ops(), "the expired grant's completion");
        assertTrue(grant.explanation().contains("process 1 was granted /l on node /l/n, which the lock service had"
                + " already deleted"), grant.explanation());
        Anomaly overlap = r.anomalies().stream().filter(a -> a.kind() == AnomalyKind.DOUBLE_HOLDER).findFirst()
                .orElseThrow();
        assertTrue(overlap.explanation().endsWith("1's grant named a lock node the service had already deleted (its"
                + " lease expired while it waited): the service granted a lock it could not hold, see expired-grant"),
                overlap.explanation());
        assertEquals(1L, overlap.details().get("expired_grant_process"));
    }

    @Test
    void aLeaseTakenWhileAWaitersClockRanAheadSaysWhoseClockMoved() {
        // ShedLock's JDBC lock without usingDbTime: the waiter compares lock_until with its own clock, 60 s ahead
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(11, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        ops.add(Op.of(OpType.INVOKE, 12, Op.NEMESIS, Fn.START, null,
                Map.of("fault", "clock-jump", "target", "waiter", "by_ms", 60000L)));
        ops.add(Op.of(OpType.OK, 13, Op.NEMESIS, Fn.START, null,
                Map.of("fault", "clock-jump", "target", "waiter", "by_ms", 60000L, "process", 1L, "worker", 1L)));
        op(20, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        op(30, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(31, OpType.OK, 0, Fn.RELEASE, null);
        op(40, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(41, OpType.OK, 1, Fn.RELEASE, null);
        CheckResult r = new MutualExclusionChecker(Recipe.lease("shedlock")).check(History.ofValid(ops));
        Anomaly a = r.anomalies().stream().filter(x -> x.kind() == AnomalyKind.DOUBLE_HOLDER).findFirst()
                .orElseThrow();
        assertEquals("clock-jump of process 1's clock by 60000 ms", a.details().get("client_clock"));
        assertTrue(a.explanation().endsWith("a leased lock has no session to watch, and a client's clock was moved"
                + " when 1 was granted (clock-jump of process 1's clock by 60000 ms): a lease judged on a client's"
                + " clock ends when that clock says, so 0 still believed it held it"), a.explanation());

        // the same grant after the clock is back: the general wording, naming no clock
        ops.add(5, Op.of(OpType.INVOKE, 14, Op.NEMESIS, Fn.STOP, null,
                Map.of("fault", "clock-jump", "target", "waiter", "process", 1L, "worker", 1L)));
        Anomaly later = new MutualExclusionChecker(Recipe.lease("shedlock")).check(History.ofValid(ops)).anomalies()
                .stream().filter(x -> x.kind() == AnomalyKind.DOUBLE_HOLDER).findFirst().orElseThrow();
        assertFalse(later.details().containsKey("client_clock"));
        assertTrue(later.explanation().contains("(its lease ran out, a server forgot it, a clock moved, or another"
                + " client took it)"), later.explanation());
    }

    @Test
    void aLeaseTakenAfterAServersClockJumpedAheadNamesThatServerRatherThanARelease() {
        // Redlock on three instances: 0 holds two of them (the third still had 1's key, released just after), the
        // second's clock jumps 5 s ahead and drops 0's key, and 1 takes that instance and the third
        op(0, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(5, OpType.OK, 1, Fn.ACQUIRE, grant(1));
        op(8, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(9, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(2));
        op(11, OpType.OK, 1, Fn.RELEASE, null);
        ops.add(Op.of(OpType.INVOKE, 12, Op.NEMESIS, Fn.START, null,
                Map.of("fault", "clock-jump", "target", "node:2", "by_ms", 5000L)));
        ops.add(Op.of(OpType.OK, 13, Op.NEMESIS, Fn.START, null,
                Map.of("fault", "clock-jump", "target", "node:2", "nodes", List.of(2L), "by_ms", 5000L)));
        op(14, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(20, OpType.OK, 1, Fn.ACQUIRE, grant(3));
        op(30, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(31, OpType.OK, 0, Fn.RELEASE, null);
        op(40, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(41, OpType.OK, 1, Fn.RELEASE, null);
        Anomaly a = new MutualExclusionChecker(Recipe.lease("redlock")).check(History.ofValid(ops)).anomalies()
                .stream().filter(x -> x.kind() == AnomalyKind.DOUBLE_HOLDER).findFirst().orElseThrow();
        assertEquals("clock-jump of server 2 by 5000 ms began at 0.000 s", a.details().get("server_clock"));
        assertFalse(a.details().containsKey("released_by"), "the clock, not 1's own release, is the story");
        assertTrue(a.explanation().endsWith("a leased lock has no session to watch, and a server's clock moved while"
                + " 0 held it (clock-jump of server 2 by 5000 ms began at 0.000 s): a lease a server counts on its"
                + " own clock ends early when that clock jumps ahead, so 0 still believed it held it"),
                a.explanation());
    }

    @Test
    void aLeaseTakenJustAfterAThirdClientsLateReleaseNamesThatRelease() {
        // ShedLock 6's unlock on the application's clock: UPDATE ... WHERE name = ?, whoever holds the row
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(20, OpType.INVOKE, 0, Fn.RELEASE, null); // paused here, past the lease
        op(1100, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(1110, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        op(1200, OpType.INVOKE, 2, Fn.ACQUIRE, null);
        op(2020, OpType.OK, 0, Fn.RELEASE, Map.of("held", "unknown")); // the late release ends 1's row
        op(2030, OpType.OK, 2, Fn.ACQUIRE, grant(3));
        op(2100, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(2101, OpType.OK, 1, Fn.RELEASE, Map.of("held", "unknown"));
        op(2200, OpType.INVOKE, 2, Fn.RELEASE, null);
        op(2201, OpType.OK, 2, Fn.RELEASE, Map.of("held", "unknown"));
        CheckResult r = new MutualExclusionChecker(Recipe.lease("shedlock")).check(History.ofValid(ops));
        List<Anomaly> doubles = r.anomalies().stream().filter(x -> x.kind() == AnomalyKind.DOUBLE_HOLDER).toList();
        assertEquals(1, doubles.size(), doubles.toString());
        Anomaly a = doubles.get(0);
        assertEquals(1L, a.details().get("first_process"));
        assertEquals(2L, a.details().get("second_process"));
        assertEquals(0L, a.details().get("released_by"));
        assertTrue(a.explanation().endsWith("; process 0's release completed at 0.000 s, after 1 was granted and"
                + " before 2 was: a release whose condition names no owner ends whichever hold the lock has then"),
                a.explanation());

        // the late releaser may take the lock itself once its release has ended the other's row
        ops.clear();
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(20, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(1100, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(1110, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        op(2020, OpType.OK, 0, Fn.RELEASE, Map.of("held", "unknown"));
        op(2021, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(2030, OpType.OK, 0, Fn.ACQUIRE, grant(3));
        op(2100, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(2101, OpType.OK, 1, Fn.RELEASE, Map.of("held", "unknown"));
        Anomaly itself = new MutualExclusionChecker(Recipe.lease("shedlock")).check(History.ofValid(ops)).anomalies()
                .stream().filter(x -> x.kind() == AnomalyKind.DOUBLE_HOLDER).findFirst().orElseThrow();
        assertEquals(0L, itself.details().get("released_by"), itself.explanation());

        // a holder's release of its own, later, hold is the lock working: 0 paused past its lease while holding,
        // 1 took the row, released it, and 2 took it
        ops.clear();
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(1100, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(1110, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        op(1200, OpType.INVOKE, 2, Fn.ACQUIRE, null);
        op(1500, OpType.INVOKE, 1, Fn.RELEASE, null);
        op(1510, OpType.OK, 1, Fn.RELEASE, null);
        op(1520, OpType.OK, 2, Fn.ACQUIRE, grant(3));
        op(3000, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(3010, OpType.OK, 0, Fn.RELEASE, false);
        op(3100, OpType.INVOKE, 2, Fn.RELEASE, null);
        op(3110, OpType.OK, 2, Fn.RELEASE, null);
        List<Anomaly> paused = new MutualExclusionChecker(Recipe.lease("spring")).check(History.ofValid(ops))
                .anomalies().stream().filter(x -> x.kind() == AnomalyKind.DOUBLE_HOLDER).toList();
        assertEquals(2, paused.size(), paused.toString());
        for (Anomaly x : paused) {
            assertEquals(0L, x.details().get("first_process"));
            assertFalse(x.details().containsKey("released_by"), x.explanation());
        }
    }

    @Test
    void aHistoryWithoutAGrantHasNothingToCheckAndARunOfItIsUnknown() {
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.INFO, 0, Fn.ACQUIRE, null, "CannotAcquireLockException: Failed to lock mutex");
        op(20, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(30, OpType.FAIL, 1, Fn.ACQUIRE, null, "timeout");
        CheckResult r = new MutualExclusionChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertFalse(r.checked());
        assertEquals("no acquire was granted (2 asked): no hold to check", r.error());
        CheckResult run = Checkers.forRun(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(Verdict.UNKNOWN, run.verdict(), "a run that never held the lock proves nothing of it");
    }

    @Test
    void aHolderThatNeverReleasesHoldsToTheEnd() {
        op(0, OpType.INVOKE, 0, Fn.ACQUIRE, null);
        op(10, OpType.OK, 0, Fn.ACQUIRE, grant(1));
        op(500, OpType.INVOKE, 1, Fn.ACQUIRE, null);
        op(600, OpType.OK, 1, Fn.ACQUIRE, grant(2));
        CheckResult r = new MutualExclusionChecker(Recipe.MUTEX).check(History.ofValid(ops));
        assertEquals(Verdict.INVALID, r.verdict());
        assertEquals(0L, r.anomalies().get(0).details().get("overlap_ns"),
                "the overlap runs from the second grant to the end of the history, which is that grant");
    }

    @Test
    void aThrowingCheckerYieldsUnknownNotACrash() {
        Checker boom = new Checker() {
            @Override
            public String name() {
                return "boom";
            }

            @Override
            public CheckResult check(History h) {
                throw new IllegalStateException("bad");
            }
        };
        CheckResult r = Checkers.compose("all", List.of(Checkers.noop(), boom)).check(History.ofValid(List.of()));
        assertEquals(Verdict.UNKNOWN, r.verdict());
        assertEquals("checker failed: java.lang.IllegalStateException: bad", r.children().get(1).error());
    }

    @Test
    void theWorstVerdictWins() {
        assertEquals(Verdict.INVALID, Verdict.VALID.and(Verdict.INVALID).and(Verdict.UNKNOWN));
        assertEquals(Verdict.UNKNOWN, Verdict.VALID.and(Verdict.UNKNOWN));
        assertEquals(Verdict.VALID, Verdict.VALID.and(Verdict.VALID));
    }
}
