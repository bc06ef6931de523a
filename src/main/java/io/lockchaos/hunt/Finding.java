package io.lockchaos.hunt;

import io.lockchaos.core.TestSpec;
import io.lockchaos.fault.FaultKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One finding of a hunt: its signature, the runs that showed it, the smallest test that still shows it and how often
 * that test reproduced it, on which versions it ran and how, and the known bug it is (null for a new one).
 */
final class Finding {
    final int number;
    final Signature signature;
    final TestSpec first;
    final Path firstRun;
    final List<Path> runs = new ArrayList<>();
    final List<String> storyLines;
    TestSpec minimal;
    int shrinkRuns;
    int reproduced;
    int rateRuns;
    /** A version's outcome of the minimal test: {@code 5.4.0 -> invalid (1 of 1)}. */
    final Map<String, String> versions = new LinkedHashMap<>();
    KnownBugs.Bug known;
    List<KnownBugs.Bug> related = List.of();
    /** What the lock does by design under its faults, when it is that and no known bug. */
    Limitations.Limitation limitation;

    Finding(int number, Signature signature, TestSpec first, Path firstRun, List<String> storyLines) {
        this.number = number;
        this.signature = signature;
        this.first = first;
        this.firstRun = firstRun;
        this.storyLines = List.copyOf(storyLines);
        this.minimal = first;
        runs.add(firstRun);
    }

    /** The kinds of fault its smallest test has. */
    Set<FaultKind> minimalFaults() {
        Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        minimal.schedule().events().forEach(e -> kinds.add(e.fault().kind()));
        return kinds;
    }

    /** The name it is filed under: the known bug's id, the limitation's ("by design: ..."), or "new". */
    String verdictText() {
        if (known == null && limitation != null) {
            return "by design: " + limitation.id();
        }
        return known != null ? known.id() : "new" + (related.isEmpty() ? "" : " (related: " + String.join(", ",
                related.stream().map(KnownBugs.Bug::id).toList()) + ")");
    }

    Map<String, Object> toMap(Path huntDir) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("number", number);
        m.put("known_bug", known == null ? null : known.id());
        m.put("related", related.stream().map(KnownBugs.Bug::id).toList());
        m.put("by_design", limitation == null ? null : limitation.id());
        m.put("recipe", signature.recipe());
        m.put("anomalies", signature.anomalies().stream().map(a -> a.wireName()).sorted().toList());
        m.put("faults", signature.faults().stream().map(f -> f.wireName()).sorted().toList());
        m.put("story", signature.story());
        m.put("runs", runs.stream().map(p -> huntDir.relativize(p).toString()).toList());
        m.put("minimal_workload", "finding-" + number + ".json");
        m.put("shrink_runs", shrinkRuns);
        m.put("reproduced", reproduced);
        m.put("rate_runs", rateRuns);
        m.put("versions", versions);
        m.put("report", "finding-" + number + ".md");
        return m;
    }
}
