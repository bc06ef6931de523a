package io.lockchaos.cli;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checker;
import io.lockchaos.checker.linear.LinearizabilityChecker;
import io.lockchaos.checker.linear.Model;
import io.lockchaos.checker.linear.Models;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.History;
import io.lockchaos.report.ConsoleSummary;
import io.lockchaos.report.Reports;
import io.lockchaos.report.ResultsJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code check HISTORY}: grades a stored history and writes results.json and the reports beside it. For a file called
 * {@code history.*} the reports go into its folder; for any other name, into the folder {@code NAME.report/} beside
 * it, so that two histories in one folder do not overwrite each other's reports.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks a history with the lock checkers and writes results.json and the reports",
            "(timeline.html, plots, summary.txt, junit.xml) beside it.",
            "Exit code: 0 valid, 1 invalid, 2 unknown or bad input."})
final class CheckCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "HISTORY", description = "history file (JSON lines or Jepsen EDN)")
    Path history;

    @Option(names = "--format", description = "jsonl, edn or auto (by file extension; default)",
            converter = FormatConverter.class, defaultValue = "auto")
    HistoryFiles.Format format;

    @Option(names = "--recipe",
            description = "what the lock promises: mutex, reentrant-mutex, semaphore:N, rw or multi (default mutex)")
    String recipe;

    @Option(names = "--model", description = {"also (or, without --recipe, only) check linearizability against a model:",
        "mutex, owner-mutex, reentrant-mutex, semaphore:N, rw, register or cas-register"})
    String model;

    @Option(names = "--time-limit", defaultValue = "60", description = "linearizability search budget, seconds")
    long timeLimit;

    @Option(names = "--max-configurations", defaultValue = "2000000",
            description = "linearizability memory bound: configurations cached per key")
    long maxConfigurations;

    @Option(names = "--results", description = "where to write results.json (default: beside the history)")
    Path results;

    @Option(names = "--no-report", description = "write only results.json, no timeline, plots or junit.xml")
    boolean noReport;

    @Override
    public Integer call() throws IOException {
        Recipe r = null;
        Model<?> m = null;
        try {
            if (recipe != null || model == null) {
                r = Recipe.parse(recipe == null ? "mutex" : recipe);
            }
            if (model != null) {
                m = Models.parse(model);
            }
        } catch (IllegalArgumentException e) {
            throw new UserError("--" + e.getMessage());
        }
        if (timeLimit < 1 || maxConfigurations < 1) {
            throw new UserError("--time-limit and --max-configurations must be at least 1");
        }
        History h = HistoryFiles.read(history, format);
        List<Checker> checkers = new ArrayList<>();
        if (r != null) {
            checkers.add(Checkers.forRecipe(r));
        }
        if (m != null) {
            checkers.add(new LinearizabilityChecker(m, Duration.ofSeconds(timeLimit), maxConfigurations));
        }
        CheckResult result = checkers.size() == 1 ? Checkers.safe(checkers.get(0)).check(h)
                : Checkers.compose("all", checkers).check(h);
        Path out = results != null ? results : HistoryFiles.resultsPath(history);
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("history", history.toString());
        if (r != null) {
            about.put("recipe", r.name());
        }
        if (m != null) {
            about.put("model", m.name());
        }
        about.put("ops", h.size());
        if (!h.warnings().isEmpty()) {
            about.put("warnings", h.warnings());
        }
        ResultsJson.write(out, result, about);
        for (String w : h.warnings()) {
            System.err.println("lockchaos: warning: " + w);
        }
        ConsoleSummary.print(System.out, Reports.headline(about), result);
        System.out.println("  results: " + out);
        if (!noReport) {
            Path dir = reportDir(history);
            try {
                Reports.writeAll(dir, h, result, about);
                System.out.println("  report: " + dir.resolve("timeline.html"));
            } catch (IOException | RuntimeException e) {
                // The verdict stands without the pictures: say what failed and keep the exit code.
                System.err.println("lockchaos: warning: " + dir + ": reports not written (" + e + ")");
            }
        }
        return result.verdict().exitCode();
    }

    /** The history's folder for {@code history.*}; else the folder {@code NAME.report/} beside the file. */
    static Path reportDir(Path history) {
        String name = history.getFileName().toString();
        Path dir = history.toAbsolutePath().getParent();
        if (name.startsWith("history.")) {
            return dir;
        }
        int dot = name.lastIndexOf('.');
        return dir.resolve((dot > 0 ? name.substring(0, dot) : name) + ".report");
    }

    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<HistoryFiles.Format> {
        @Override
        public HistoryFiles.Format convert(String s) {
            switch (s) {
                case "jsonl": return HistoryFiles.Format.JSONL;
                case "edn": return HistoryFiles.Format.EDN;
                case "auto": return HistoryFiles.Format.AUTO;
                default: throw new picocli.CommandLine.TypeConversionException(
                        "unknown format '" + s + "' (expected jsonl, edn or auto)");
            }
        }
    }
}
