package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A leader election's liveness, for a recipe that promises leadership: whether a leader is elected again, and how
 * long the election goes without one. Its safety, at most one leader at a time, is mutual exclusion with leadership
 * as the hold (from the grant to the release or to the {@code REVOKED} state by which the library took it away), and
 * stays the mutual exclusion checker's {@code double-holder}.
 *
 * <p>After the final heal (the last {@code heal} or {@code quiesce} marker), a candidate whose acquire waited out its
 * timeout while no other process certainly led is {@code no-leader} (suspect when an indeterminate acquire might have
 * led): the election did not recover. Across the whole history it measures every span without a leader that some
 * candidate spent waiting (from the end of one leadership to the next grant), and the time from the final heal to
 * the first leader after it.
 */
public final class LeaderElectionChecker implements Checker {
    /** The checker's name in results. */
    public static final String NAME = "leader-election";

    private final Recipe recipe;

    public LeaderElectionChecker(Recipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(History h) {
        LockHolds holds = LockHolds.of(h, recipe);
        if (holds.lockOps() == 0) {
            return CheckResult.nothingToCheck(name(), "no lock operations (acquire or release)", Map.of());
        }
        long terms = 0;
        long revoked = 0;
        List<Long> gaps = new ArrayList<>();
        for (Map.Entry<String, List<Hold>> e : holds.byKey().entrySet()) {
            List<Hold> certain = new ArrayList<>();
            for (Hold x : e.getValue()) {
                if (x.isCertain()) {
                    certain.add(x);
                    terms++;
                    revoked += x.release() == Hold.ReleaseOutcome.REVOKED ? 1 : 0;
                }
            }
            gaps.addAll(leaderlessWaits(h, e.getKey(), certain));
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("terms", terms);
        stats.put("revoked", revoked);
        Collections.sort(gaps);
        stats.put("leaderless_waits", (long) gaps.size());
        stats.put("leaderless_wait_median_ms", gaps.isEmpty() ? 0 : gaps.get(gaps.size() / 2) / 1_000_000L);
        stats.put("leaderless_wait_max_ms", gaps.isEmpty() ? 0 : gaps.get(gaps.size() - 1) / 1_000_000L);
        Anomalies anomalies = new Anomalies();
        int marker = LeakChecker.finalMarker(h);
        if (marker < 0) {
            stats.put("note", "no heal or quiesce marker: whether a leader is elected again was not judged");
            return CheckResult.of(name(), anomalies, stats);
        }
        LeakChecker.Probes probes = LeakChecker.probe(h, holds, marker, anomalies, AnomalyKind.NO_LEADER);
        stats.put("candidates_after_heal", probes.probes());
        stats.put("unelected_after_heal", probes.leaks());
        long toLeader = timeToLeader(h, holds, marker);
        if (toLeader >= 0) {
            stats.put("leader_after_heal_ms", toLeader / 1_000_000L);
        }
        if (probes.probes() == 0 && toLeader < 0) {
            return CheckResult.nothingToCheck(name(), "nobody stood for election after the final heal", stats);
        }
        return CheckResult.of(name(), anomalies, stats);
    }

    /**
     * The spans (ns) between one leadership of {@code key} and the next in which nobody led and some candidate waited:
     * from the end of the union of certain holds to the next grant, counted when an acquire of the key was in flight
     * when the span began.
     */
    private static List<Long> leaderlessWaits(History h, String key, List<Hold> certain) {
        certain.sort((a, b) -> Long.compare(a.certain().from(), b.certain().from()));
        Waiting waiting = new Waiting(h, key);
        List<Long> out = new ArrayList<>();
        long coveredUntil = -1;
        long coveredUntilTime = 0;
        for (Hold x : certain) {
            Hold.Window w = x.certain();
            if (coveredUntil >= 0 && coveredUntil != Hold.OPEN && w.from() > coveredUntil
                    && waiting.at(coveredUntil)) {
                out.add(Math.max(0, w.fromTime() - coveredUntilTime));
            }
            if (coveredUntil < 0 || w.until() > coveredUntil) {
                coveredUntil = w.until();
                coveredUntilTime = w.untilTime();
            }
        }
        return out;
    }

    /**
     * Whether an acquire of a key was in flight at a position (invoked before it, not completed by then), asked at
     * positions that never decrease: one pass over the history in all, however many spans it is asked about.
     */
    private static final class Waiting {
        private final History h;
        private final String key;
        private int next;
        /** The latest completion (Long.MAX_VALUE: none) of the acquires invoked before {@link #next}. */
        private long latestEnd = -1;

        Waiting(History h, String key) {
            this.h = h;
            this.key = key;
        }

        boolean at(long p) {
            List<Op> ops = h.ops();
            for (; next < Math.min(p, ops.size()); next++) {
                Op op = ops.get(next);
                if (op.f() == Fn.ACQUIRE && op.type() == OpType.INVOKE && !op.isNemesis()
                        && LockHolds.keysOf(op).contains(key)) {
                    int c = h.completionOf(next);
                    latestEnd = Math.max(latestEnd, c < 0 ? Long.MAX_VALUE : c);
                }
            }
            return latestEnd > p;
        }
    }

    /**
     * From the final heal to the first grant after it (0 when someone certainly led at the heal), in ns; -1 when
     * nobody led after it.
     */
    private static long timeToLeader(History h, LockHolds holds, int marker) {
        long markerTime = h.get(marker).time();
        long first = Long.MAX_VALUE;
        for (List<Hold> l : holds.byKey().values()) {
            for (Hold x : l) {
                if (!x.isCertain()) {
                    continue;
                }
                if (x.certain().contains(marker)) {
                    return 0;
                }
                if (x.certain().from() > marker) {
                    first = Math.min(first, x.certain().fromTime());
                }
            }
        }
        return first == Long.MAX_VALUE ? -1 : Math.max(0, first - markerTime);
    }
}
