package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.history.Times;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Mutual exclusion, generalised to N permits and read/write locks: two certain hold windows that the recipe forbids
 * to overlap are a violation; overlaps that involve only possible windows are counted, not reported. Each violation is
 * classified from the first holder's point of view: had it been told SUSPENDED or LOST before the second acquired, and
 * had its session already ended (a client that ignored connection state) or was it still alive (a lock-service bug).
 * Also reports lost locks, grants on nodes owned by another session, and grants on nodes already deleted.
 */
public final class MutualExclusionChecker implements Checker {
    private final Recipe recipe;

    public MutualExclusionChecker(Recipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The checker's name in results. */
    public static final String NAME = "mutual-exclusion";

    @Override
    public CheckResult check(History h) {
        LockHolds holds = LockHolds.of(h, recipe);
        if (holds.lockOps() == 0) {
            return CheckResult.nothingToCheck(name(), "no lock operations (acquire or release)", Map.of());
        }
        long asked = 0;
        boolean granted = false;
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            if (op.f() == Fn.ACQUIRE && !op.isNemesis()) {
                asked += op.type() == OpType.INVOKE ? 1 : 0;
                granted |= op.type() == OpType.OK;
            }
        }
        if (!granted) {
            // every acquire failed or ended unknown (a library release whose table differs, say): a "valid" here
            // would only say that nothing was ever held
            return CheckResult.nothingToCheck(name(), "no acquire was granted (" + asked + " asked): no hold to check",
                    Map.of("acquires", asked));
        }
        Anomalies anomalies = new Anomalies();
        Counts counts = new Counts();
        for (Map.Entry<String, List<Hold>> e : holds.byKey().entrySet()) {
            sweep(h, holds, e.getKey(), e.getValue(), anomalies, counts);
            for (Hold x : e.getValue()) {
                if (x.grant().ownerMismatch()) {
                    counts.foreign++;
                    anomalies.add(Anomaly.of(AnomalyKind.FOREIGN_OWNER_GRANT, x.key(),
                            List.of(x.grantIndex()), x.certainStart(), x.certainEnd(),
                            "process " + x.process() + " was granted " + LockHolds.describe(x.key()) + " on node " + x.grant().node()
                                    + " whose ephemeral owner is session " + hex(x.grant().owner())
                                    + ", not its own session " + hex(x.grant().session()),
                            Anomaly.details("session", x.grant().session(), "owner", x.grant().owner())));
                }
                if (x.grant().nodeGone()) {
                    counts.expired++;
                    anomalies.add(Anomaly.of(AnomalyKind.EXPIRED_GRANT, x.key(), List.of(x.grantIndex()),
                            x.certainStart(), x.certainEnd(), "process " + x.process() + " was granted "
                                    + LockHolds.describe(x.key()) + " on node " + x.grant().node() + ", which the lock"
                                    + " service had already deleted at the revision of its answer: session "
                                    + hex(x.grant().session()) + " expired while the acquire waited, and the lock was"
                                    + " granted anyway (as etcd 3.4's Lock does: etcd issue 11456)",
                            Map.of("session", x.grant().session())));
                }
                if (x.release() == Hold.ReleaseOutcome.LOST) {
                    counts.lost++;
                    anomalies.add(lostLock(holds, x));
                }
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("keys", holds.byKey().size());
        stats.put("certain_holds", counts.certain);
        stats.put("indeterminate_acquires", holds.indeterminateAcquires());
        stats.put("max_concurrent_holders", counts.maxConcurrent);
        stats.put("violations", counts.violations);
        stats.put("overlap_ns_total", counts.overlapNs);
        stats.put("holds_overlapping_indeterminate", counts.possibleOverlaps);
        stats.put("lost_locks", counts.lost);
        stats.put("foreign_owner_grants", counts.foreign);
        stats.put("expired_grants", counts.expired);
        return CheckResult.of(name(), anomalies, stats);
    }

    private static final class Counts {
        long certain;
        int maxConcurrent;
        long violations;
        long overlapNs;
        long possibleOverlaps;
        long lost;
        long foreign;
        long expired;
    }

    /** A hold counts toward the limit unless it is nested inside its own process's outer hold. */
    private boolean isUnit(Hold x) {
        return x.isCertain() && x.depth() == 0;
    }

    private void sweep(History h, LockHolds holds, String key, List<Hold> list, Anomalies anomalies,
                       Counts counts) {
        List<Hold> units = new ArrayList<>();
        // Indeterminate windows never end; keep the earliest start (a position) of two distinct processes.
        long firstStart = Hold.OPEN;
        int firstProcess = Integer.MIN_VALUE;
        long secondStart = Hold.OPEN;
        for (Hold x : list) {
            if (isUnit(x)) {
                units.add(x);
            }
            long indStart = !x.isCertain() ? x.possible().from()
                    : x.possible().isOpen() ? x.certain().until() : Hold.OPEN;
            if (indStart == Hold.OPEN) {
                continue;
            }
            if (x.process() == firstProcess) {
                firstStart = Math.min(firstStart, indStart);
            } else if (indStart < firstStart) {
                secondStart = firstStart;
                firstStart = indStart;
                firstProcess = x.process();
            } else {
                secondStart = Math.min(secondStart, indStart);
            }
        }
        counts.certain += units.size();
        List<Hold> byStart = new ArrayList<>(units);
        byStart.sort(java.util.Comparator.comparingLong(x -> x.certain().from()));
        List<Hold> byEnd = new ArrayList<>(units);
        byEnd.sort(java.util.Comparator.comparingLong(x -> x.certain().until()));
        List<Hold> active = new ArrayList<>();
        Map<Integer, Integer> activeByProcess = new HashMap<>(); // processes with active holds only
        int nextEnd = 0;
        for (Hold x : byStart) {
            // positions are distinct: a window that ended before this grant's position is over
            while (nextEnd < byEnd.size() && byEnd.get(nextEnd).certain().until() <= x.certain().from()) {
                Hold done = byEnd.get(nextEnd++);
                active.remove(done);
                // a process with no active hold leaves the map: counting them is then its size, not a scan
                activeByProcess.computeIfPresent(done.process(), (p, n) -> n > 1 ? n - 1 : null);
            }
            long ownerOther = x.process() == firstProcess ? secondStart : firstStart;
            if (ownerOther < x.certain().until()) {
                counts.possibleOverlaps++;
            }
            List<Hold> conflicting = conflicts(active, x);
            if (!conflicting.isEmpty()) {
                counts.violations++;
                Anomaly a = violation(h, holds, key, x, conflicting);
                counts.overlapNs += ((Number) a.details().get("overlap_ns")).longValue();
                anomalies.add(a);
            }
            active.add(x);
            activeByProcess.merge(x.process(), 1, Integer::sum);
            int concurrent = recipe.isSemaphore() ? active.size() : activeByProcess.size();
            counts.maxConcurrent = Math.max(counts.maxConcurrent, concurrent);
        }
    }

    /** The active holds that the new hold {@code x} may not overlap, or an empty list. */
    private List<Hold> conflicts(List<Hold> active, Hold x) {
        return Exclusion.conflicts(recipe, active, x.process(), x.mode(), Hold::process, Hold::mode);
    }

    private Anomaly violation(History h, LockHolds holds, String key, Hold second, List<Hold> conflicting) {
        Hold first = conflicting.get(0);
        for (Hold c : conflicting) {
            if (c.certain().from() < first.certain().from()) {
                first = c;
            }
        }
        long endPos = Math.min(first.certain().until(), second.certain().until());
        long startTime = second.certainStart();
        long endTime = endPos == Hold.OPEN ? h.endTime() : h.get((int) endPos).time();
        // time only measures: real clocks may step back between lines, so an overlap is never negative
        long overlap = Math.max(0, endTime - startTime);
        long overlapEnd = Math.max(endTime, startTime);
        AnomalyKind kind = recipe.isSemaphore() ? AnomalyKind.OVER_CAPACITY
                : recipe.readWrite() ? AnomalyKind.RW_CONFLICT : AnomalyKind.DOUBLE_HOLDER;
        String told = toldBefore(holds, first, second.certain().from());
        // a leased lock has no session: its end on the servers is silent (lease, restart, clock, another client)
        String session = recipe.leased() ? "lease" : sessionState(holds, first, second.certain().from());
        List<Long> ops = new ArrayList<>();
        ops.add(second.grantIndex());
        for (Hold c : conflicting) {
            ops.add(c.grantIndex());
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("overlap_ns", overlap);
        details.put("first_process", (long) first.process());
        details.put("second_process", (long) second.process());
        details.put("first_session", first.grant().session());
        details.put("first_notified", told);
        details.put("first_session_fate", session);
        details.put("holders", (long) conflicting.size() + 1);
        StringBuilder s = new StringBuilder();
        if (kind == AnomalyKind.OVER_CAPACITY) {
            s.append(conflicting.size() + 1).append(" holders of ").append(LockHolds.describe(key)).append(" (").append(recipe.capacity())
                    .append(" permits) at ").append(Times.at(second.certainStart())).append(": process ")
                    .append(second.process()).append(" was granted while ").append(conflicting.size())
                    .append(" held; ");
        } else {
            s.append("processes ").append(first.process()).append(" and ").append(second.process())
                    .append(" both held ").append(LockHolds.describe(key));
            if (kind == AnomalyKind.RW_CONFLICT) {
                s.append(" (").append(mode(first)).append(" and ").append(mode(second)).append(")");
            }
            s.append(" for ").append(Times.span(overlap)).append(": ").append(second.process())
                    .append(" was granted at ").append(Times.at(second.certainStart())).append(" while ")
                    .append(first.process()).append(" had held it since ").append(Times.at(first.certainStart()))
                    .append("; ");
        }
        Hold expired = second.grant().nodeGone() ? second
                : conflicting.stream().filter(c -> c.grant().nodeGone()).findFirst().orElse(null);
        if (expired != null) {
            details.put("expired_grant_process", (long) expired.process());
            s.append(expired.process()).append("'s grant named a lock node the service had already deleted (its lease"
                    + " expired while it waited): the service granted a lock it could not hold, see expired-grant");
            return Anomaly.of(kind, key, ops, second.certainStart(), overlapEnd, s.toString(), details);
        }
        if (session.equals("lease")) {
            String clock = clientClockAt(h, second.certain().from());
            String serverClock = clock != null ? null : serverClockBetween(h, first.certain().from(),
                    second.certain().from());
            if (serverClock != null) {
                // the likelier story than any release in between: a server whose clock ran ahead dropped the lock
                details.put("server_clock", serverClock);
                s.append("a leased lock has no session to watch, and a server's clock moved while ")
                        .append(first.process()).append(" held it (").append(serverClock).append("): a lease a"
                        + " server counts on its own clock ends early when that clock jumps ahead, so ")
                        .append(first.process()).append(" still believed it held it");
                return Anomaly.of(kind, key, ops, second.certainStart(), overlapEnd, s.toString(), details);
            }
            if (clock != null) {
                details.put("client_clock", clock);
                s.append("a leased lock has no session to watch, and a client's clock was moved when ")
                        .append(second.process()).append(" was granted (").append(clock).append("): a lease judged on a"
                        + " client's clock ends when that clock says, so ").append(first.process())
                        .append(" still believed it held it");
            } else {
                s.append("a leased lock has no session to watch: on the servers it ended (its lease ran out, a"
                        + " server forgot it, a clock moved, or another client took it) while ").append(first.process())
                        .append(" still believed it held it");
            }
            Op release = releaseBetween(h, key, first, second);
            if (release != null) {
                details.put("released_by", (long) release.process());
                s.append("; process ").append(release.process()).append("'s release completed at ")
                        .append(Times.at(release.time())).append(", after ").append(first.process())
                        .append(" was granted and before ").append(second.process()).append(" was: a release whose"
                        + " condition names no owner ends whichever hold the lock has then");
            }
            return Anomaly.of(kind, key, ops, second.certainStart(), overlapEnd, s.toString(), details);
        }
        s.append(first.process()).append(switch (told) {
            case "before" -> " had been told SUSPENDED or LOST before that";
            case "after" -> " was told SUSPENDED or LOST only afterwards";
            default -> " was never told SUSPENDED or LOST";
        });
        s.append(switch (session) {
            case "ended" -> ", and its session ended while it still believed it held the lock (the client went on as if"
                    + " it held it)";
            case "alive" -> ", and its session was still alive (a lock-service bug)";
            default -> "";
        });
        return Anomaly.of(kind, key, ops, second.certainStart(), overlapEnd, s.toString(), details);
    }

    /**
     * The last release of {@code key} that completed ok between {@code first}'s grant and {@code second}'s, by a process
     * other than {@code first}'s (it may be {@code second}'s own) whose own grant came before {@code first}'s: a late
     * release, of a hold {@code first} had
     * already superseded, that may have ended {@code first}'s lease for {@code second} to take; or null. (A later
     * holder's release of its own hold is the lock working.)
     */
    static Op releaseBetween(History h, String key, Hold first, Hold second) {
        Op found = null;
        long from = Math.max(0, first.certain().from());
        for (long i = from; i < second.certain().from() && i < h.size(); i++) {
            Op op = h.get((int) i);
            if (op.type() == OpType.OK && op.f() == Fn.RELEASE && key.equals(op.key())
                    && op.process() != first.process() && grantedBefore(h, op.process(), key, i, from)) {
                found = op;
            }
        }
        return found;
    }

    /** Whether {@code process}'s last grant of {@code key} before position {@code at} came before position {@code p}. */
    private static boolean grantedBefore(History h, int process, String key, long at, long p) {
        for (long i = at - 1; i >= 0; i--) {
            Op op = h.get((int) i);
            if (op.process() == process && op.type() == OpType.OK && op.f() == Fn.ACQUIRE && key.equals(op.key())) {
                return i < p;
            }
        }
        return false;
    }

    /**
     * The clock fault on clients in force at position {@code p} ({@code clock-jump of process 2's clock by 60000 ms}),
     * or null: a start that moved a client agent's clock (its value names a {@code process}, or {@code agents} for
     * every one) and no stop or heal after it before {@code p}.
     */
    static String clientClockAt(History h, long p) {
        Map<Object, String> moved = new LinkedHashMap<>();
        for (int i = 0; i < h.size() && i < p; i++) {
            Op op = h.get(i);
            if (op.isNemesis() && op.f() == Fn.HEAL) {
                moved.clear(); // the final heal puts every clock back
            }
            String fault = op.isNemesis() ? op.stringField("fault") : null;
            if (fault == null || !fault.startsWith("clock-")) {
                continue;
            }
            Object who = op.field("process") != null ? op.field("process") : op.field("agents") != null ? "agents"
                    : null;
            if (who == null) {
                continue; // a server's clock, or a start not yet done
            }
            if (op.f() == Fn.START && op.type() == OpType.OK) {
                moved.put(who, fault + " of " + (who.equals("agents") ? "every client's clock"
                        : "process " + who + "'s clock") + " by " + op.longField("by_ms", 0) + " ms");
            } else if (op.f() == Fn.STOP && op.type() == OpType.INVOKE) {
                moved.remove(who);
            }
        }
        return moved.isEmpty() ? null : String.join(", ", moved.values());
    }

    /**
     * The moves of servers' clocks (a clock fault's start or stop on {@code nodes}) completed between positions {@code
     * from} and {@code to}, as "clock-jump of server 2 by 5000 ms at 4.610 s", or null: each is a step of that server's
     * clock, forward at a start of a jump ahead, forward at the stop of a jump behind.
     */
    static String serverClockBetween(History h, long from, long to) {
        List<String> moves = new ArrayList<>();
        for (long i = Math.max(0, from); i < to && i < h.size(); i++) {
            Op op = h.get((int) i);
            String fault = op.isNemesis() && op.type() == OpType.OK ? op.stringField("fault") : null;
            if (fault == null || !fault.startsWith("clock-") || op.field("nodes") == null
                    || op.f() != Fn.START && op.f() != Fn.STOP) {
                continue;
            }
            Object nodes = op.field("nodes");
            String which = nodes instanceof List<?> l && l.size() == 1 ? "server " + l.get(0) : "servers " + nodes;
            moves.add(fault + " of " + which + " by " + op.longField("by_ms", 0) + " ms " + (op.f() == Fn.START
                    ? "began" : "ended") + " at " + Times.at(op.time()));
        }
        return moves.isEmpty() ? null : String.join(", ", moves);
    }

    private static String mode(Hold x) {
        return x.mode() == Hold.Mode.READ ? "reader" : "writer";
    }

    /** "before", "after" or "never": whether the holder saw SUSPENDED or LOST in its certain window before position p. */
    static String toldBefore(LockHolds holds, Hold x, long p) {
        String told = "never";
        for (LockHolds.StateEvent e : holds.states(x.process())) {
            boolean bad = "SUSPENDED".equals(e.state()) || "LOST".equals(e.state());
            if (!bad || !x.certain().contains(e.position())) {
                continue;
            }
            if (e.position() < p) {
                return "before";
            }
            told = "after";
        }
        return told;
    }

    /**
     * "ended", "alive" or "unknown": what the history shows of the first holder's session (the one its grant was made
     * on) around the second grant at position p. Ended: the history records that session's end (LOST for it, or an
     * expiry) while the holder still believed it held, so the client went on as if it held the lock. Alive: the session
     * is seen alive after the second grant (a later grant on it, a connection on it, or the holder's release completing
     * with no disconnection since its grant), and sessions never come back, so the lock service granted twice.
     */
    static String sessionState(LockHolds holds, Hold x, long p) {
        long s = x.grant().session();
        if (s != 0 && holds.sessionLastSeenAlive(s) > p) {
            return "alive"; // alive after the second grant, so alive at it: whatever ended the session came later
        }
        if (s != 0 && holds.sessionEndedAt(s) < x.certain().until()) {
            return "ended";
        }
        if (x.release() == Hold.ReleaseOutcome.RELEASED && !disconnectedWhileHeld(holds, x)) {
            // connected from the grant through its release's ok: an ended session would have closed the connection
            return "alive";
        }
        return "unknown";
    }

    /**
     * Whether the holder was told SUSPENDED or LOST between its grant and its release's completion. A release ok after
     * that proves nothing of the session: Curator's release, like many a user's, ignores a lock node already gone.
     */
    private static boolean disconnectedWhileHeld(LockHolds holds, Hold x) {
        long until = x.possible().until();
        for (LockHolds.StateEvent e : holds.states(x.process())) {
            if (("SUSPENDED".equals(e.state()) || "LOST".equals(e.state())) && e.position() >= x.certain().from()
                    && e.position() < until) {
                return true;
            }
        }
        return false;
    }

    private static Anomaly lostLock(LockHolds holds, Hold x) {
        String told = toldBefore(holds, x, x.certain().until());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("process", (long) x.process());
        details.put("session", x.grant().session());
        details.put("notified", told);
        return Anomaly.of(AnomalyKind.LOST_LOCK, x.key(), List.of(x.releaseIndex(), x.grantIndex()),
                x.certainStart(), x.certainEnd(), "process " + x.process() + " lost " + LockHolds.describe(x.key())
                        + " some time between " + Times.at(x.certainStart()) + " and " + Times.at(x.certainEnd())
                        + " while it believed it held it" + ("before".equals(told)
                        ? " (it had been told SUSPENDED or LOST)" : " (it was never told SUSPENDED or LOST)"),
                details);
    }

    static String hex(long session) {
        return "0x" + Long.toHexString(session);
    }
}
