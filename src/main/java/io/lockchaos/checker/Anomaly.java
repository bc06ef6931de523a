package io.lockchaos.checker;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One thing a checker found.
 *
 * @param kind what it is
 * @param severity how it weighs on the verdict
 * @param key the lock or resource, or null
 * @param ops the indexes of the ops involved, first the one that shows the anomaly
 * @param start start of the time window (ns) in which it happened
 * @param end end of that window (ns); {@code Long.MAX_VALUE} when it lasted to the end of the history
 * @param explanation one sentence for a person
 * @param details machine-readable facts (for example {@code overlap_ns}), JSON-shaped
 */
public record Anomaly(AnomalyKind kind, Severity severity, String key, List<Long> ops, long start, long end,
                      String explanation, Map<String, Object> details) {
    public Anomaly {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(severity);
        ops = List.copyOf(ops);
        details = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /** Checkers list at most this many anomalies of each severity; the rest are counted (see {@link Anomalies}). */
    public static final int MAX_LISTED = 100;

    /**
     * Details in the order given ({@code name, value, name, value...}): {@code Map.of} iterates in an order that
     * changes from one JVM to the next, and results.json must read the same every time it is written.
     */
    public static Map<String, Object> details(Object... namesAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return m;
    }

    /** An anomaly with its kind's default severity. */
    public static Anomaly of(AnomalyKind kind, String key, List<Long> ops, long start, long end, String explanation,
                             Map<String, Object> details) {
        return new Anomaly(kind, kind.defaultSeverity(), key, ops, start, end, explanation, details);
    }
}
