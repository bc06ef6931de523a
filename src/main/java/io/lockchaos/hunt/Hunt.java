package io.lockchaos.hunt;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.scenario.Scenario;
import io.lockchaos.scenario.ScenarioResult;
import io.lockchaos.scenario.ScheduleShrinker;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A hunt: runs drawn from a {@link HuntSpace} until the budget is spent; the first run of each new signature is
 * shrunk, its smallest test run again to say how often it reproduces and on each Curator version the hunt draws from,
 * named by the bug zoo, and written as {@code finding-N.json} (the smallest workload) and {@code finding-N.md} (the
 * report); {@code findings.json} (rewritten after every change, so a hunt cut short keeps what it found) lists them and
 * what the hunt covered. A later run of a known signature only adds itself to its finding.
 */
public final class Hunt {
    /** What a hunt may spend on one finding, besides the run that found it. */
    public record Effort(int shrinkRuns, int rateRuns) {
    }

    /** Run {@code i}'s test, or why there is none: a {@link HuntSpace}'s draw. */
    @FunctionalInterface
    interface Draws {
        TestSpec draw(int i) throws SpecException;
    }

    private final Draws space;
    private final KnownBugs bugs;
    private final Limitations limitations = Limitations.load();
    private final List<String> curators;
    private final Path dir;
    private final Effort effort;
    private final PrintStream console;
    private final Map<String, Finding> findings = new LinkedHashMap<>();
    private final Map<String, Integer> coveredRecipes = new TreeMap<>();
    private final Map<String, Integer> coveredFaults = new TreeMap<>();
    /** Draws in a row that may fail before a hunt stops: ample for a few refused shapes, not for none that runs. */
    static final int MAX_REFUSED_DRAWS = 20;
    private final List<String> problems = new ArrayList<>();
    private int runs;
    private long deadline;

    /**
     * @param curators the Curator versions drawn from: a finding on a Curator recipe is run once on each
     * @param dir the hunt's folder: its runs under {@code runs/}, its findings beside
     * @param console where each run's line goes, or null
     */
    public Hunt(HuntSpace space, KnownBugs bugs, List<String> curators, Path dir, Effort effort,
                PrintStream console) {
        this((Draws) space::draw, bugs, curators, dir, effort, console);
    }

    Hunt(Draws space, KnownBugs bugs, List<String> curators, Path dir, Effort effort, PrintStream console) {
        this.space = space;
        this.bugs = bugs;
        this.curators = List.copyOf(curators);
        this.dir = dir;
        this.effort = effort;
        this.console = console;
    }

    /** Hunts until {@code budget} is spent (a run under way finishes); returns how many findings it made. */
    public int run(Duration budget) throws IOException {
        deadline = System.nanoTime() + budget.toNanos();
        Files.createDirectories(dir.resolve("runs"));
        write();
        int refusedInARow = 0;
        for (int i = 0; System.nanoTime() < deadline; i++) {
            TestSpec spec;
            try {
                spec = space.draw(i);
                refusedInARow = 0;
            } catch (SpecException e) {
                problems.add("draw " + i + ": " + e.getMessage());
                if (++refusedInARow == MAX_REFUSED_DRAWS) {
                    // nothing asked for runs here: spinning until the budget is spent would only grow this list
                    problems.add("stopped: " + MAX_REFUSED_DRAWS + " draws in a row gave no test that runs here");
                    write();
                    break;
                }
                continue;
            }
            ScenarioResult r;
            try {
                r = Scenario.of(spec).store(dir.resolve("runs")).run();
            } catch (Exception e) {
                problems.add(spec.recipe().wireName() + " (seed " + spec.seed() + "): " + oneLine(e));
                say("  run %d: %s: could not run: %s", i + 1, spec.recipe().wireName(), oneLine(e));
                write();
                continue;
            }
            runs++;
            coveredRecipes.merge(spec.recipe().wireName(), 1, Integer::sum);
            spec.schedule().events().forEach(e -> coveredFaults.merge(e.fault().kind().wireName(), 1, Integer::sum));
            say("  run %d: %s%s, %s: %s%s", i + 1, spec.recipe().wireName(), curatorText(spec),
                    spec.faults().nemesis().isBlank() ? "no faults" : spec.faults().nemesis(),
                    r.verdict().name().toLowerCase(Locale.ROOT), r.isInvalid() ? " " + r.violations() : "");
            if (r.isInvalid()) {
                found(spec, r);
            }
            write();
        }
        return findings.size();
    }

    private static String curatorText(TestSpec spec) {
        return spec.recipe().curator() ? " on Curator " + spec.clients().curatorVersion() : "";
    }

    private void found(TestSpec spec, ScenarioResult r) throws IOException {
        Signature sig = Signature.of(spec.recipe().wireName(), r.violations(), spec.schedule().events(), r.stories());
        KnownBugs.Bug known = bugs.match(sig, spec).orElse(null);
        Finding f = same(findings.values(), sig, known);
        if (f != null) {
            f.runs.add(r.dir());
            say("    the same as finding %d (%s)", f.number, f.verdictText());
            return;
        }
        f = new Finding(findings.size() + 1, sig, spec, r.dir(), r.stories().isEmpty() ? List.of()
                : r.stories().get(0).lines());
        findings.put(sig.group(), f);
        f.known = known;
        f.related = known == null ? bugs.related(sig) : List.of();
        f.limitation = known != null ? null
                : limitations.match(sig.recipe(), sig.anomalies(), sig.faults()).orElse(null);
        say("    finding %d: %s (%s)", f.number, sig.group(), f.verdictText());
        write();
        if (f.limitation != null) {
            // every fault of the run is already the limitation's: its smallest test would say no more, and the
            // budget is worth more on runs that may find a bug
            return;
        }
        Set<AnomalyKind> target = limitations.shrinkTarget(r.violations());
        shrink(f, target);
        if (f.known == null && f.limitation == null) {
            // its smallest test may keep only the faults of a limitation: then that is what it was all along
            f.limitation = limitations.match(sig.recipe(), sig.anomalies(), f.minimalFaults()).orElse(null);
        }
        measure(f, target);
        write();
    }

    /**
     * The finding a run of {@code sig} adds to, or null for a new one: the one of the same known bug; else one of the
     * same recipe whose anomalies the run shows and whose smallest test's faults the run had (the run holds that
     * finding's cause), or of the same group.
     */
    static Finding same(java.util.Collection<Finding> findings, Signature sig, KnownBugs.Bug known) {
        for (Finding f : findings) {
            if (known != null ? f.known == known : f.known == null && f.signature.recipe().equals(sig.recipe())
                    && sig.anomalies().containsAll(f.signature.anomalies())
                    && (sig.faults().containsAll(f.minimalFaults()) || f.signature.group().equals(sig.group()))) {
                return f;
            }
        }
        return null;
    }

    /** The smallest test that still shows one of {@code target}, within the finding's share of the budget. */
    private void shrink(Finding f, Set<AnomalyKind> target) {
        ScheduleShrinker shrinker = new ScheduleShrinker(1, effort.shrinkRuns(), step -> { });
        try {
            ScheduleShrinker.Outcome out = shrinker.shrink(f.first, s -> System.nanoTime() < deadline
                    && reproduces(s, target));
            f.minimal = out.spec();
            f.shrinkRuns = out.runs();
        } catch (Exception e) {
            problems.add("shrinking finding " + f.number + ": " + oneLine(e));
        }
    }

    /** How often the smallest test reproduces, and what it does on each Curator version of the hunt. */
    private void measure(Finding f, Set<AnomalyKind> target) {
        try {
            for (int i = 0; i < effort.rateRuns() && System.nanoTime() < deadline; i++) {
                f.rateRuns++;
                if (reproduces(f.minimal, target)) {
                    f.reproduced++;
                }
            }
            if (f.minimal.recipe().curator() && curators.size() > 1) {
                for (String v : curators) {
                    if (System.nanoTime() >= deadline) {
                        f.versions.put(v, "not run (the budget was spent)");
                        continue;
                    }
                    TestSpec on = TestSpecs.with("hunt", f.minimal, Map.of("curator", v));
                    f.versions.put(v, reproduces(on, target) ? "shows it (1 run)" : "did not show it (1 run)");
                }
            }
        } catch (Exception e) {
            problems.add("measuring finding " + f.number + ": " + oneLine(e));
        }
    }

    private boolean reproduces(TestSpec spec, Set<AnomalyKind> target) throws Exception {
        runs++;
        ScenarioResult r = Scenario.of(spec).store(dir.resolve("runs")).run();
        return r.violations().stream().anyMatch(target::contains);
    }

    /** findings.json, and each finding's workload and report. */
    private void write() throws IOException {
        List<Object> list = new ArrayList<>();
        for (Finding f : findings.values()) {
            list.add(f.toMap(dir));
            writeFinding(f);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runs", runs);
        m.put("covered_recipes", coveredRecipes);
        m.put("covered_faults", coveredFaults);
        m.put("known_bugs", bugs.missing() != null ? bugs.missing() : bugs.bugs().stream().map(KnownBugs.Bug::id)
                .toList());
        m.put("problems", problems);
        m.put("findings", list);
        ResultsJson.writeMap(dir.resolve("findings.json"), m);
    }

    private void writeFinding(Finding f) throws IOException {
        // the keys that differ from a workload's defaults, and what names the test: a file a person reads
        Map<String, Object> defaults = TestSpec.DEFAULTS.toMap();
        Map<String, Object> workload = new LinkedHashMap<>();
        workload.put("name", "finding-" + f.number);
        f.minimal.toMap().forEach((k, v) -> {
            if (!k.equals("name") && (k.equals("recipe") || k.equals("seed")
                    || !String.valueOf(v).equals(String.valueOf(defaults.get(k))))) {
                workload.put(k, v);
            }
        });
        workload.put("nemesis", f.minimal.schedule().timeline());
        workload.put("expect", "invalid");
        workload.put("expect_anomalies", f.signature.anomalies().stream().map(AnomalyKind::wireName).sorted()
                .toList());
        Path json = dir.resolve("finding-" + f.number + ".json");
        ResultsJson.writeMap(json, workload);
        StringBuilder b = new StringBuilder();
        b.append("# Finding ").append(f.number).append(": ").append(f.verdictText()).append("\n\n");
        if (f.known != null) {
            b.append("Known bug **").append(f.known.id()).append("**: ").append(f.known.title()).append(" (the zoo's `")
                    .append(f.known.workload()).append("`).\n\n");
        } else if (f.limitation != null) {
            b.append("By design, not a bug to file: ").append(f.limitation.title()).append(" (every fault of ")
                    .append(f.minimal == f.first ? "the run" : "its smallest test").append(" is ")
                    .append(names(f.limitation.faults().stream().map(k -> k.wireName()).toList()))
                    .append(").\n\n");
        }
        b.append("- **What**: ").append(names(f.signature.anomalies().stream().map(AnomalyKind::wireName).toList()))
                .append(" with `").append(f.signature.recipe()).append("`").append(curatorText(f.first))
                .append(", under ").append(f.signature.faults().isEmpty() ? "no fault" : names(f.signature.faults()
                        .stream().map(k -> k.wireName()).toList())).append(".\n");
        b.append("- **Story**: ").append(f.signature.story().isEmpty() ? "(no double holder's story)"
                : String.join(" → ", f.signature.story())).append(".\n");
        b.append("- **Reproduce** (from the repository root):\n\n```sh\nbin/lockchaos run --workload ")
                .append(json).append(" --check-expect\n```\n\n");
        if (f.limitation != null && f.shrinkRuns == 0 && f.rateRuns == 0) {
            b.append("- **How often**: not shrunk or measured (by design from its first run); ")
                    .append(f.runs.size()).append(" of the hunt's drawn runs showed it.\n");
        } else {
            b.append("- **How often**: the smallest test showed it in ").append(f.reproduced).append(" of ")
                    .append(f.rateRuns).append(" runs (shrinking took ").append(f.shrinkRuns).append(" runs); ")
                    .append(f.runs.size()).append(" of the hunt's drawn runs showed it.\n");
        }
        if (!f.versions.isEmpty()) {
            b.append("- **Versions** (Curator, the smallest test once each):");
            f.versions.forEach((v, what) -> b.append(' ').append(v).append(": ").append(what).append(';'));
            b.setLength(b.length() - 1);
            b.append(".\n");
        } else {
            b.append("- **Versions**: only the one run: ").append(versionsOf(f.first)).append(".\n");
        }
        b.append("- **First run**: `").append(f.firstRun)
                .append("` (its `timeline.html` shows the holds and faults).\n");
        if (!f.storyLines.isEmpty()) {
            b.append("\n```\n").append(String.join("\n", f.storyLines)).append("\n```\n");
        }
        b.append("\nThe smallest test, `").append(json.getFileName()).append("`:\n\n```json\n")
                .append(Files.readString(json, StandardCharsets.UTF_8).strip()).append("\n```\n");
        Files.writeString(dir.resolve("finding-" + f.number + ".md"), b.toString(), StandardCharsets.UTF_8);
    }

    private static String versionsOf(TestSpec s) {
        return (s.recipe().curator() ? "Curator " + s.clients().curatorVersion() + ", " : "") + "ZooKeeper servers "
                + s.cluster().zooKeeperVersion() + " where ZooKeeper runs, the library release the recipe names";
    }

    private static String names(List<String> names) {
        return names.stream().sorted().map(n -> "`" + n + "`").reduce((a, c) -> a + ", " + c).orElse("nothing");
    }

    private void say(String format, Object... args) {
        if (console != null) {
            console.printf(Locale.ROOT, format + "%n", args);
        }
    }

    private static String oneLine(Throwable e) {
        return String.valueOf(e.getMessage() != null ? e.getMessage() : e).replaceAll("\\s*\\R\\s*", " ");
    }

    /** What the hunt found and covered, in lines for the console. */
    public List<String> summary() {
        List<String> out = new ArrayList<>();
        long known = findings.values().stream().filter(f -> f.known != null).count();
        long byDesign = findings.values().stream().filter(f -> f.known == null && f.limitation != null).count();
        out.add(String.format(Locale.ROOT, "%d run(s), %d finding(s): %d known bug(s), %d new%s", runs,
                findings.size(), known, findings.size() - known - byDesign, byDesign == 0 ? ""
                        : String.format(Locale.ROOT, ", %d by design", byDesign)));
        for (Finding f : findings.values()) {
            out.add(String.format(Locale.ROOT, "  finding %d: %s: %s; smallest test %d of %d; %s", f.number,
                    f.verdictText(), f.signature.group(), f.reproduced, f.rateRuns,
                    dir.resolve("finding-" + f.number + ".md")));
        }
        out.add("covered: " + coveredRecipes + "; faults " + coveredFaults);
        problems.forEach(p -> out.add("  could not: " + p));
        return out;
    }
}
