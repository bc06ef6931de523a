package io.lockchaos.checker;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one checker concluded. The verdict is the worst severity of every anomaly the checker found (the list may be
 * capped, the verdict never is), unless the checker lacked the information to decide: then unknown, with the reason in
 * {@code error}. {@code checked} is false when the checker found nothing it checks in the history: such a result is
 * unknown on its own ("found nothing to check" is never valid) and does not count in a composition. A composed result
 * lists its parts in {@code children}.
 */
public record CheckResult(String checker, Verdict verdict, List<Anomaly> anomalies, Map<String, Object> stats,
                          String error, List<CheckResult> children, boolean checked) {
    public CheckResult {
        anomalies = List.copyOf(anomalies);
        stats = Collections.unmodifiableMap(new LinkedHashMap<>(stats));
        children = List.copyOf(children);
        if (!checked && verdict != Verdict.UNKNOWN) {
            throw new IllegalArgumentException("a result that checked nothing must be unknown, not " + verdict);
        }
    }

    public CheckResult(String checker, Verdict verdict, List<Anomaly> anomalies, Map<String, Object> stats,
                       String error, List<CheckResult> children) {
        this(checker, verdict, anomalies, stats, error, children, true);
    }

    /** A result whose verdict follows from the anomalies (all of them, listed or not). */
    public static CheckResult of(String checker, Anomalies anomalies, Map<String, Object> stats) {
        Map<String, Object> s = stats;
        if (anomalies.unlisted() > 0) {
            s = new LinkedHashMap<>(stats);
            s.put("anomalies_not_listed", anomalies.unlisted());
        }
        return new CheckResult(checker, anomalies.verdict(), anomalies.listed(), s, null, List.of(), true);
    }

    /** A result whose verdict follows from its anomalies. */
    public static CheckResult of(String checker, List<Anomaly> anomalies, Map<String, Object> stats) {
        Anomalies all = new Anomalies();
        anomalies.forEach(all::add);
        return of(checker, all, stats);
    }

    /** A result that could not decide, for the reason given. */
    public static CheckResult unknown(String checker, String reason, Map<String, Object> stats) {
        return new CheckResult(checker, Verdict.UNKNOWN, List.of(), stats, reason, List.of(), true);
    }

    /** A result for a history in which the checker found nothing it checks; {@code what} says what was missing. */
    public static CheckResult nothingToCheck(String checker, String what, Map<String, Object> stats) {
        return new CheckResult(checker, Verdict.UNKNOWN, List.of(), stats, what, List.of(), false);
    }

    /** The kinds of the anomalies, of this result and its children, that make it invalid. */
    public java.util.Set<AnomalyKind> violationKinds() {
        java.util.Set<AnomalyKind> kinds = java.util.EnumSet.noneOf(AnomalyKind.class);
        for (Anomaly a : allAnomalies()) {
            if (a.severity() == Severity.VIOLATION) {
                kinds.add(a.kind());
            }
        }
        return kinds;
    }

    /** Anomalies of this result and all its children, depth first. */
    public List<Anomaly> allAnomalies() {
        if (children.isEmpty()) {
            return anomalies;
        }
        List<Anomaly> all = new java.util.ArrayList<>(anomalies);
        for (CheckResult c : children) {
            all.addAll(c.allAnomalies());
        }
        return all;
    }
}
