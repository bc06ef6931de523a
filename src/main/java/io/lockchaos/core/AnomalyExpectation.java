package io.lockchaos.core;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Severity;
import io.lockchaos.checker.Verdict;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The kinds of anomaly a run is expected to show and not to show ({@code expect_anomalies},
 * {@code expect_no_anomalies}): a verdict says only that something broke, and a workload that means to reproduce a
 * double holder is not met by a leak, nor a hunt's finding by the noise beside it.
 *
 * @param present kinds each of which the run must show (violations or notes)
 * @param absent kinds none of which it may show
 */
public record AnomalyExpectation(Set<AnomalyKind> present, Set<AnomalyKind> absent) {
    /** Nothing expected either way. */
    public static final AnomalyExpectation NONE = new AnomalyExpectation(Set.of(), Set.of());

    public AnomalyExpectation {
        present = present.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(present));
        absent = absent.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(absent));
        for (AnomalyKind k : present) {
            if (absent.contains(k)) {
                throw new IllegalArgumentException("expect_no_anomalies: " + k.wireName()
                        + " is also in expect_anomalies");
            }
        }
    }

    public boolean isEmpty() {
        return present.isEmpty() && absent.isEmpty();
    }

    /**
     * Reads kinds by their names, separated by spaces or commas ({@code double-holder, lost-update}).
     *
     * @throws IllegalArgumentException naming {@code key} and the name that is no kind
     */
    public static Set<AnomalyKind> parseKinds(String key, String text) {
        Set<AnomalyKind> kinds = EnumSet.noneOf(AnomalyKind.class);
        for (String name : text.trim().split("[\\s,]+")) {
            if (name.isEmpty()) {
                continue;
            }
            AnomalyKind k = null;
            for (AnomalyKind x : AnomalyKind.values()) {
                if (x.wireName().equals(name.toLowerCase(Locale.ROOT))) {
                    k = x;
                }
            }
            if (k == null) {
                throw new IllegalArgumentException(key + ": '" + name + "' is no anomaly kind (expected some of "
                        + text(EnumSet.allOf(AnomalyKind.class)) + ")");
            }
            kinds.add(k);
        }
        return kinds;
    }

    /** Kinds as a workload file gives them back: their names in the order of {@link AnomalyKind}, space-separated. */
    public static String text(Collection<AnomalyKind> kinds) {
        return kinds.stream().sorted().map(AnomalyKind::wireName).collect(Collectors.joining(" "));
    }

    /**
     * What a run expected to reach {@code verdict} is held to: a run expected valid (a Curator release where the bug is
     * fixed, by {@code expect_by_curator}) need not show the violations an invalid one must, so only the forbidden
     * kinds remain.
     */
    public AnomalyExpectation forVerdict(Verdict verdict) {
        if (verdict != Verdict.VALID || present.isEmpty()) {
            return this;
        }
        Set<AnomalyKind> notes = EnumSet.noneOf(AnomalyKind.class);
        for (AnomalyKind k : present) {
            if (k.defaultSeverity() != Severity.VIOLATION) {
                notes.add(k);
            }
        }
        return new AnomalyExpectation(notes, absent);
    }

    /** Why this cannot be met together with the verdict {@code expect}, or null: a violation expected of a valid run. */
    public String conflictWith(Verdict expect) {
        if (expect == Verdict.VALID) {
            for (AnomalyKind k : present) {
                if (k.defaultSeverity() == Severity.VIOLATION) {
                    return "expect_anomalies: " + k.wireName() + " makes a run invalid, and the workload expects a"
                            + " valid one (expect valid, or no expect)";
                }
            }
        }
        return null;
    }

    /**
     * What the run showed that this does not allow, or did not show that it needs, one phrase each ({@code "no
     * double-holder"}, {@code "leaked-lock"}): empty when met.
     */
    public List<String> misses(Collection<AnomalyKind> seen) {
        List<String> out = new ArrayList<>();
        for (AnomalyKind k : EnumSet.allOf(AnomalyKind.class)) {
            if (present.contains(k) && !seen.contains(k)) {
                out.add("no " + k.wireName());
            } else if (absent.contains(k) && seen.contains(k)) {
                out.add(k.wireName() + " seen");
            }
        }
        return out;
    }

    /** Every kind of anomaly {@code result} and its children report, whatever its severity. */
    public static Set<AnomalyKind> seen(CheckResult result) {
        Set<AnomalyKind> kinds = EnumSet.noneOf(AnomalyKind.class);
        for (Anomaly a : result.allAnomalies()) {
            kinds.add(a.kind());
        }
        return kinds;
    }

    /** The expectation in words, for the line a run prints: {@code double-holder, and no leaked-lock}. */
    public String describe() {
        String with = String.join(", ", present.stream().sorted().map(AnomalyKind::wireName).toList());
        String without = String.join(", ", absent.stream().sorted().map(AnomalyKind::wireName).toList());
        return with.isEmpty() ? "no " + without : without.isEmpty() ? with : with + ", and no " + without;
    }
}
