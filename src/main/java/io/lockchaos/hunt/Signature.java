package io.lockchaos.hunt;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.report.OverlapStory;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a finding is, for grouping and for matching against known bugs: the recipe, the kinds of the anomalies that made
 * the run invalid, the kinds of the faults its schedule had, and the kinds of event in its first story (a cut, a
 * pause, a SUSPENDED, a grant), in order. Findings with the same recipe, anomalies and faults are one finding; the
 * story is the first run's, to read.
 */
public record Signature(String recipe, Set<AnomalyKind> anomalies, Set<FaultKind> faults, List<String> story) {
    public Signature {
        anomalies = anomalies.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(anomalies));
        faults = faults.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(faults));
        story = List.copyOf(story);
    }

    /** The signature of a run of {@code recipe} with these violations, fault events and stories. */
    static Signature of(String recipe, Set<AnomalyKind> violations, List<FaultEvent> events,
                        List<OverlapStory> stories) {
        Set<FaultKind> faults = EnumSet.noneOf(FaultKind.class);
        events.forEach(e -> faults.add(e.fault().kind()));
        return new Signature(recipe, violations, faults, stories.isEmpty() ? List.of() : storyKinds(stories.get(0)));
    }

    /** The group a finding belongs to: recipe, anomalies and faults (not the story, whose timing varies by run). */
    public String group() {
        return recipe + " | " + names(anomalies.stream().map(AnomalyKind::wireName).toList()) + " | "
                + (faults.isEmpty() ? "no faults" : names(faults.stream().map(FaultKind::wireName).toList()));
    }

    private static String names(List<String> names) {
        return names.stream().sorted().collect(Collectors.joining(", "));
    }

    /** The story's events as kinds, repeats of one kind in a row once: {@code [grant, cut, SUSPENDED, grant]}. */
    static List<String> storyKinds(OverlapStory story) {
        List<String> kinds = new ArrayList<>();
        for (OverlapStory.Event e : story.events()) {
            String k = kind(e.what());
            if (k != null && (kinds.isEmpty() || !kinds.get(kinds.size() - 1).equals(k))) {
                kinds.add(k);
            }
        }
        return kinds;
    }

    /** One event's kind, or null for an event of none of these kinds. */
    static String kind(String what) {
        String w = what.toLowerCase(Locale.ROOT);
        if (w.startsWith("nemesis: ")) {
            String rest = w.substring("nemesis: ".length());
            String first = rest.split("[\\s(]", 2)[0];
            return first.equals("heal") || first.equals("stop") || first.equals("restart") || first.equals("resume")
                    ? "heal" : first.startsWith("isolate") || first.startsWith("partition") ? "cut" : first;
        }
        for (String state : List.of("SUSPENDED", "LOST", "RECONNECTED", "REVOKED", "EXPIRED")) {
            if (what.contains(state)) {
                return state;
            }
        }
        if (w.contains("expire")) {
            return "expiry";
        }
        if (w.contains("is granted") || w.contains("leads")) {
            return "grant";
        }
        if (w.contains("release")) {
            return "release";
        }
        return null;
    }
}
