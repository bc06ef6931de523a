package io.lockchaos.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFiles;
import io.lockchaos.report.OverlapStory;
import io.lockchaos.report.Reports;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code report RUN_DIR}: re-checks a stored run and writes results.json and every report into its folder. The recipe
 * comes from {@code --recipe}, else from the run's test.json, else it is {@code mutex}, as for {@code check}.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        header = "Check a stored run again and regenerate its results and reports.",
        description = {"Re-checks a stored run (RUN_DIR/history.jsonl) and writes results.json, timeline.html,",
            "latency/rate plots (PNG and SVG), summary.txt and junit.xml into RUN_DIR.",
            "Exit code: 0 valid, 1 invalid, 2 unknown or bad input."})
final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "a run folder holding history.jsonl")
    Path runDir;

    @Option(names = "--recipe", description = "what the lock promises (default: test.json's recipe, else mutex)")
    String recipe;

    @Override
    public Integer call() throws IOException {
        if (!Files.isDirectory(runDir)) {
            throw new UserError(runDir + ": " + (Files.exists(runDir) ? "is not a directory" : "no such directory")
                    + ", expected a run folder");
        }
        Path historyFile = RunDir.of(runDir).history();
        if (!Files.isRegularFile(historyFile)) {
            throw new UserError(runDir + ": no history.jsonl in this folder");
        }
        Map<String, Object> test = testJson(RunDir.of(runDir).test());
        String recipeName = recipe != null ? recipe : test.get("recipe") instanceof String s ? s : "mutex";
        Recipe r;
        try {
            r = LockRecipe.parse(recipeName).promises();
        } catch (IllegalArgumentException e) {
            throw new UserError((recipe != null ? "--recipe: " : RunDir.of(runDir).test() + ": recipe: ")
                    + e.getMessage());
        }
        History h = HistoryInput.read(historyFile, HistoryFiles.Format.JSONL);
        // a stored run is judged as the run judged it (its checks, the slack its workload gave); a folder without
        // test.json holds a history from elsewhere, judged by what is in it
        long slack = test.get("acquire_slack_ms") instanceof Number n ? n.longValue() : -1;
        CheckResult result = Checkers.safe(test.isEmpty() ? Checkers.forRecipe(r) : Checkers.forRun(r, slack))
                .check(h);
        Map<String, Object> about = new LinkedHashMap<>();
        if (test.get("name") != null) {
            about.put("name", test.get("name"));
        }
        about.put("history", historyFile.toString());
        about.put("recipe", r.name());
        about.put("ops", h.size());
        if (test.get("seed") != null) {
            about.put("seed", test.get("seed"));
        }
        if (!h.warnings().isEmpty()) {
            about.put("warnings", h.warnings());
        }
        CheckCommand.putStalls(about, h);
        List<OverlapStory> stories = OverlapStory.forRun(runDir, h, result);
        about.put("stories", stories.stream().map(OverlapStory::toMap).toList());
        ResultsJson.write(RunDir.of(runDir).results(), result, about);
        Reports.writeAll(runDir, h, result, about);
        for (String w : h.warnings()) {
            System.err.println("lockchaos: warning: " + w);
        }
        // summary.txt is what is printed for the verdict, stories included
        System.out.print(Reports.writeVerdict(runDir, Reports.headline(about), result, List.of(), stories, 3,
                List.of()));
        System.out.println("  results: " + RunDir.of(runDir).results());
        System.out.println("  summary: " + RunDir.of(runDir).summary());
        System.out.println("  report: " + RunDir.of(runDir).timeline());
        return result.verdict().exitCode();
    }

    /** test.json as a map; an empty map when the run has none. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> testJson(Path file) {
        if (!Files.exists(file)) {
            return Map.of();
        }
        try {
            Object o = new ObjectMapper().readValue(file.toFile(), Object.class);
            if (!(o instanceof Map)) {
                throw new UserError(file + ": expected a JSON object");
            }
            return (Map<String, Object>) o;
        } catch (JsonProcessingException e) {
            throw new UserError(file + ": not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new UserError(file + ": cannot read (" + e.getMessage() + ")");
        }
    }
}
