package io.lockchaos.compare;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.Verdict;
import io.lockchaos.scenario.ScenarioResult;
import java.util.Set;
import java.util.TreeSet;

/**
 * The reliability runs of one column under one fault class.
 *
 * @param runs runs made
 * @param doubleHolders runs in which two clients held the lock at once
 * @param invalid runs with any violation (a double holder, a lost update, a leak...)
 * @param unknown runs that could not be judged or could not be carried out
 * @param kinds the violation kinds of the invalid runs
 */
public record Tally(int runs, int doubleHolders, int invalid, int unknown, Set<String> kinds) {
    public static final Tally NONE = new Tally(0, 0, 0, 0, Set.of());

    public Tally {
        kinds = java.util.Collections.unmodifiableSet(new TreeSet<>(kinds));
    }

    /** This tally and one more run: {@code r}, or a run that failed before it could be judged (null). */
    public Tally plus(ScenarioResult r) {
        if (r == null) {
            return new Tally(runs + 1, doubleHolders, invalid, unknown + 1, kinds);
        }
        Set<String> k = new TreeSet<>(kinds);
        r.violations().forEach(v -> k.add(v.wireName()));
        return new Tally(runs + 1, doubleHolders + (r.violations().contains(AnomalyKind.DOUBLE_HOLDER) ? 1 : 0),
                invalid + (r.verdict() == Verdict.INVALID ? 1 : 0), unknown + (r.verdict() == Verdict.UNKNOWN ? 1 : 0),
                k);
    }

}
