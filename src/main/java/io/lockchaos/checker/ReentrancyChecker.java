package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.history.Times;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reentrancy and ownership. A reentrant recipe must grant a re-acquire by the process that holds the lock (a fail is
 * a violation; an indeterminate one is counted), and its nested holds must be released as often as they were taken
 * (the mutual exclusion checker sees a premature free as a double holder). A non-reentrant recipe must not grant a
 * re-acquire. A release by a process that held nothing is a violation where the recipe promises owner-only release.
 * Where anyone may release, a release that completes ok although nobody even possibly held the key while it was in
 * flight is a violation too.
 * A write acquire by a process holding only the read lock of a read/write lock is an upgrade, not a re-entry: Curator
 * never grants it, so its refusal is no violation (it is counted).
 */
public final class ReentrancyChecker implements Checker {
    private final Recipe recipe;

    public ReentrancyChecker(Recipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public String name() {
        return "reentrancy";
    }

    /** Whether anyone possibly held the key while the stray release was in flight (it may have released that). */
    private static boolean possiblyHeld(LockHolds holds, LockHolds.StrayRelease s) {
        for (Hold x : holds.holds(s.key())) {
            if (x.possible().overlaps(s.position(), s.completionPosition() == Hold.OPEN ? Hold.OPEN
                    : s.completionPosition() + 1)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public CheckResult check(History h) {
        LockHolds holds = LockHolds.of(h, recipe);
        if (holds.lockOps() == 0) {
            return CheckResult.nothingToCheck(name(), "no lock operations (acquire or release)", Map.of());
        }
        Anomalies anomalies = new Anomalies();
        long granted = 0;
        long denied = 0;
        long indeterminate = 0;
        for (LockHolds.Reacquire r : holds.reacquires()) {
            if (r.outcome() == OpType.OK) {
                granted++;
                if (!recipe.reentrant() && !recipe.isSemaphore()) {
                    anomalies.add(Anomaly.of(AnomalyKind.NON_REENTRANT_GRANTED, r.key(),
                            List.of(r.completionIndex(), r.invokeIndex()), r.time(), r.time(),
                            "process " + r.process() + " was granted " + LockHolds.describe(r.key()) + " again at "
                                    + Times.at(r.time()) + " while it already held it, but " + recipe.name()
                                    + " is not reentrant", Map.of("process", (long) r.process())));
                }
            } else if (r.outcome() == OpType.FAIL) {
                denied++;
                if (recipe.reentrant()) {
                    anomalies.add(Anomaly.of(AnomalyKind.REENTRY_DENIED, r.key(),
                            List.of(r.completionIndex(), r.invokeIndex()), r.time(), r.time(),
                            "process " + r.process() + " held " + LockHolds.describe(r.key()) + " but its re-acquire at "
                                    + Times.at(r.time()) + " failed, although " + recipe.name() + " is reentrant",
                            Map.of("process", (long) r.process())));
                }
            } else {
                indeterminate++;
            }
        }
        long strays = 0;
        for (LockHolds.StrayRelease s : holds.strayReleases()) {
            if (s.outcome() == OpType.FAIL) {
                continue; // a refused release of a lock one does not hold is the recipe doing its job
            }
            strays++;
            if (recipe.ownerRelease() && s.outcome() == OpType.OK) {
                // only a release the recipe said it made: one whose outcome is unknown may have been refused
                Op interrupted = interruptedAcquireBefore(h, s);
                anomalies.add(Anomaly.of(AnomalyKind.RELEASE_BY_NON_HOLDER, s.key(), interrupted == null
                        ? List.of(s.invokeIndex()) : List.of(s.invokeIndex(), interrupted.index()),
                        s.time(), s.time(), "process " + s.process() + " released " + LockHolds.describe(s.key()) + " at "
                                + Times.at(s.time()) + " without holding it, but " + recipe.name()
                                + " lets only the holder release" + (interrupted == null ? "" : ": its acquire at "
                                + Times.at(interrupted.time()) + " was interrupted and failed (" + interrupted.error()
                                + "), yet the lock had taken it"), Map.of("process", (long) s.process())));
            } else if (s.outcome() == OpType.OK && !possiblyHeld(holds, s)) {
                // where anyone may release, a stray release is one that found no hold at all: ok cannot be true
                anomalies.add(Anomaly.of(AnomalyKind.RELEASE_BY_NON_HOLDER, s.key(), List.of(s.invokeIndex()),
                        s.time(), s.time(), "process " + s.process() + " released " + LockHolds.describe(s.key())
                                + " at " + Times.at(s.time()) + " and was told ok, although nobody held it",
                        Map.of("process", (long) s.process())));
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("reacquires_granted", granted);
        stats.put("reacquires_failed", denied);
        stats.put("reacquires_indeterminate", indeterminate);
        stats.put("releases_by_non_holders", strays);
        stats.put("upgrades_requested", holds.upgrades());
        return CheckResult.of(name(), anomalies, stats);
    }

    /**
     * The failed acquire of the stray release's process just before it, when the interrupt fault ended it: an
     * interrupted acquire that took the lock all the same is what such a release shows.
     */
    private static Op interruptedAcquireBefore(History h, LockHolds.StrayRelease s) {
        for (long i = s.position() - 1; i >= 0; i--) {
            Op op = h.get((int) i);
            if (op.process() != s.process() || op.type() == OpType.INVOKE) {
                continue;
            }
            boolean interrupted = op.f() == Fn.ACQUIRE && op.type() == OpType.FAIL && op.error() != null
                    && op.error().startsWith("interrupted by the nemesis");
            return interrupted ? op : null;
        }
        return null;
    }
}
