package io.lockchaos.cli;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFiles;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.scenario.Scenario;
import io.lockchaos.scenario.ScenarioResult;
import io.lockchaos.scenario.ScheduleShrinker;
import io.lockchaos.store.RunDir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code shrink RUN_DIR}: makes a failing stored run's test smaller while it still fails the same way, and writes the
 * smallest as a workload file next to the run.
 */
@Command(name = "shrink", mixinStandardHelpOptions = true,
        header = "Shrink a failing stored run to a minimal test that still fails.",
        description = {"Shrinks a failing stored run: fewer and shorter faults, fewer clients, less time, while it still"
            + " shows the same violation. Writes RUN_DIR/minimal.json and RUN_DIR/shrink.json.",
            "Exit code: 0 when the written test reproduced in at least one of the --rate-runs, 2 when it did not, when"
            + " the run did not fail, or on error."})
final class ShrinkCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "a stored run's folder whose verdict is invalid")
    Path runDir;

    @Option(names = "--attempts", defaultValue = "3", description = "runs per candidate; any failing run counts")
    int attempts;

    @Option(names = "--max-runs", defaultValue = "30", description = "the most runs shrinking may take")
    int maxRuns;

    @Option(names = "--rate-runs", defaultValue = "5", description = "runs of the final test to measure how often"
            + " it reproduces")
    int rateRuns;

    @Override
    public Integer call() throws Exception {
        TestSpec original;
        try {
            original = TestSpecs.fromStoredRun(runDir);
        } catch (SpecException e) {
            throw new UserError(e.getMessage());
        }
        if (attempts < 1 || maxRuns < 1 || rateRuns < 1) {
            throw new UserError("--attempts, --max-runs and --rate-runs must be at least 1");
        }
        History h = HistoryInput.read(RunDir.of(runDir).history(), HistoryFiles.Format.JSONL);
        // judged as the run was: a run's checks (token order, acquire timeouts when its workload asked for them)
        CheckResult result = Checkers.safe(Checkers.forRun(original.recipe().promises(),
                original.checking().acquireSlackMillis())).check(h);
        Set<AnomalyKind> target = result.violationKinds();
        if (target.isEmpty()) {
            throw new UserError(runDir + ": the run is " + result.verdict().name().toLowerCase(Locale.ROOT)
                    + ", with no violation to keep while shrinking");
        }
        Path store = runDir.resolve("shrink");
        System.out.println("shrinking " + runDir + " while it shows " + target + " (" + attempts + " run(s) per"
                + " candidate, at most " + maxRuns + " runs)");
        ScheduleShrinker shrinker = new ScheduleShrinker(attempts, maxRuns, step -> System.out.printf(
                "  %-60s %s after %d run(s)%n", step.change(), step.reproduced() ? "still fails" : "no longer fails",
                step.tries()));
        ScheduleShrinker.Outcome out = shrinker.shrink(original, spec -> reproduces(spec, store, target));
        int reproduced = 0;
        for (int i = 0; i < rateRuns; i++) {
            if (reproduces(out.spec(), store, target)) {
                reproduced++;
            }
        }
        Map<String, Object> minimal = new LinkedHashMap<>(out.spec().toMap());
        minimal.put("name", original.name() + "-minimal");
        minimal.put("nemesis", out.spec().schedule().timeline());
        minimal.put("expect", "invalid");
        ResultsJson.writeMap(RunDir.of(runDir).minimal(), minimal);
        List<Map<String, Object>> steps = new ArrayList<>();
        for (ScheduleShrinker.Step s : out.steps()) {
            steps.add(Map.of("change", s.change(), "runs", s.tries(), "still_fails", s.reproduced()));
        }
        Map<String, Object> log = new LinkedHashMap<>();
        log.put("violations", target.stream().map(AnomalyKind::wireName).toList());
        log.put("steps", steps);
        log.put("runs", out.runs());
        log.put("final_reproduced", reproduced);
        log.put("final_runs", rateRuns);
        ResultsJson.writeMap(RunDir.of(runDir).shrinkLog(), log);
        System.out.println("smallest test: " + out.spec().clients().count() + " clients, "
                + out.spec().workload().timeSeconds() + " s, "
                + out.spec().schedule().events().size() + " fault(s): " + String.join("; ",
                out.spec().schedule().timeline()));
        System.out.printf(Locale.ROOT, "it reproduced in %d of %d runs; written to %s (%d runs in all)%n", reproduced,
                rateRuns, RunDir.of(runDir).minimal(), out.runs() + rateRuns);
        if (reproduced == 0) {
            System.err.println("lockchaos: shrink: the final test did not fail in " + rateRuns + " run(s): it may"
                    + " reproduce too rarely to trust; try more --attempts or --rate-runs");
            return 2;
        }
        return 0;
    }

    private static boolean reproduces(TestSpec spec, Path store, Set<AnomalyKind> target) throws Exception {
        Files.createDirectories(store);
        ScenarioResult r = Scenario.of(spec).store(store).run();
        return r.violations().stream().anyMatch(target::contains);
    }
}
