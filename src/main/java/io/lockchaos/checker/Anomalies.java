package io.lockchaos.checker;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Collects a checker's anomalies. Every anomaly counts toward the verdict; only the listing is capped, at {@link
 * Anomaly#MAX_LISTED} per severity (and the first of each kind is listed whatever the cap), so that a flood of notes
 * or of one kind of violation can neither hide another from the verdict nor push it off the list.
 */
public final class Anomalies {
    private final Map<Severity, List<Anomaly>> listed = new EnumMap<>(Severity.class);
    private final java.util.Set<AnomalyKind> kinds = java.util.EnumSet.noneOf(AnomalyKind.class);
    private Verdict verdict = Verdict.VALID;
    private long total;
    private long unlisted;

    public void add(Anomaly a) {
        total++;
        verdict = verdict.and(a.severity().verdict());
        List<Anomaly> l = listed.computeIfAbsent(a.severity(), s -> new ArrayList<>());
        // the first of each kind is always listed: a flood of one kind must not hide that another was found
        if (l.size() < Anomaly.MAX_LISTED || kinds.add(a.kind())) {
            kinds.add(a.kind());
            l.add(a);
        } else {
            unlisted++;
        }
    }

    /** The worst severity of everything added, listed or not. */
    public Verdict verdict() {
        return verdict;
    }

    public long total() {
        return total;
    }

    /** How many were counted but not listed. */
    public long unlisted() {
        return unlisted;
    }

    public boolean isEmpty() {
        return total == 0;
    }

    /** The listed anomalies, violations first, each severity in the order added. */
    public List<Anomaly> listed() {
        List<Anomaly> out = new ArrayList<>();
        for (Severity s : Severity.values()) {
            out.addAll(listed.getOrDefault(s, List.of()));
        }
        return out;
    }
}
