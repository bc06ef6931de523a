package io.lockchaos.checker;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one checker concluded. The verdict is the worst of the anomalies' severities unless the checker lacked the
 * information to decide (then unknown, with the reason in {@code error}); a composed result lists its parts in
 * {@code children}.
 */
public record CheckResult(String checker, Verdict verdict, List<Anomaly> anomalies, Map<String, Object> stats,
                          String error, List<CheckResult> children) {
    public CheckResult {
        anomalies = List.copyOf(anomalies);
        stats = Collections.unmodifiableMap(new LinkedHashMap<>(stats));
        children = List.copyOf(children);
    }

    /** A result whose verdict follows from its anomalies. */
    public static CheckResult of(String checker, List<Anomaly> anomalies, Map<String, Object> stats) {
        Verdict v = Verdict.VALID;
        for (Anomaly a : anomalies) {
            v = v.and(a.severity().verdict());
        }
        return new CheckResult(checker, v, anomalies, stats, null, List.of());
    }

    /** A result that could not decide, for the reason given. */
    public static CheckResult unknown(String checker, String reason, Map<String, Object> stats) {
        return new CheckResult(checker, Verdict.UNKNOWN, List.of(), stats, reason, List.of());
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
