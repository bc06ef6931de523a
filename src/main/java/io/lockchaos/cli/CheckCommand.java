package io.lockchaos.cli;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checker;
import io.lockchaos.checker.linear.Expiry;
import io.lockchaos.checker.linear.LinearizabilityChecker;
import io.lockchaos.checker.linear.Model;
import io.lockchaos.checker.linear.Models;
import io.lockchaos.report.ResultsEdn;
import io.lockchaos.report.RunnerStalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFiles;
import io.lockchaos.report.ConsoleSummary;
import io.lockchaos.report.Reports;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code check HISTORY}: grades a history and writes results.json and the reports into one folder of its own
 * ({@code --out}): {@code RUN/check/} for a run's history (a run's own results.json, stories and reports are never
 * overwritten: {@code report RUN} regenerates those), else {@code NAME.check/} beside the file, so checking files in a
 * repository never litters it. The recipe comes from {@code --recipe}, else from the history's test.json (the run's,
 * or {@code NAME.test.json} beside the file, which {@code gen} writes), else it is mutex.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        header = "Check history files or whole stores (JSON lines or Jepsen EDN); write results and reports.",
        description = {"Checks a history with the lock checkers and writes results.json and the reports",
            "(timeline.html, plots, summary.txt, junit.xml) into its own folder; checks several files or folders",
            "as a corpus: a line per file, a total and check-index.json.",
            "Exit code: 0 valid, 1 invalid, 2 unknown or bad input (for a corpus: the worst verdict)."})
final class CheckCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "PATH", description = {"history files (JSON lines or Jepsen EDN) or"
        + " folders to search for them (history.jsonl, history.edn, *.jsonl, *.edn, also in Jepsen's",
        "store/<test>/<time>/ layout); more than one file, or any folder, checks a corpus"})
    List<Path> paths;

    @Option(names = "--jobs", description = "corpus: files checked at once (default: every core)")
    Integer jobs;

    @Option(names = "--report", description = "corpus: also write each file's results.json and reports (into its"
            + " RUN/check/ or NAME.check/)")
    boolean report;

    @Option(names = "--results-format", defaultValue = "json", description = "json (default), or edn to write a"
            + " Jepsen-style results.edn ({:valid? ...} per checker) beside results.json")
    String resultsFormat;

    @Option(names = "--format", description = "jsonl, edn or auto (by file extension; default)",
            converter = FormatConverter.class, defaultValue = "auto")
    HistoryFiles.Format format;

    @Option(names = "--recipe", completionCandidates = LockRecipe.Names.class,
            description = {"what the lock promises, as the recipe of that name does: ${COMPLETION-CANDIDATES}",
                "(default: the run's test.json, else mutex)"})
    String recipe;

    @Option(names = "--model", description = {
        "also (or, without --recipe, only) check linearizability against a model:",
        "mutex, owner-mutex, reentrant-mutex, semaphore:N, rw, register, cas-register, or recipe (the model of",
        "what the recipe promises, with its lock checkers)"})
    String model;

    @Option(names = "--expiry", paramLabel = "none|evidence", description = {
        "how a lock model reads releases the history does not show: none (Knossos' reading: a :fail did not",
        "happen, :info may or may not have, no error implies anything) or evidence (a holder's own not-held",
        "release, an expired session, LOST or a crashed holder may end that hold). Default: evidence for a",
        "lockchaos run (a test.json beside the history), else none"})
    String expiry;

    @Option(names = "--time-limit", defaultValue = "60s", description = "linearizability search budget: 60, 60s, 2m"
            + " (default: ${DEFAULT-VALUE})")
    String timeLimit;

    @Option(names = "--max-configurations", defaultValue = "2000000",
            description = "linearizability memory bound: configurations cached per key")
    long maxConfigurations;

    @Option(names = "--results", description = "where to write results.json (default: in the --out folder)")
    Path results;

    @Option(names = "--out", description = "folder for results.json and the reports (default: RUN/check/ for a run's"
            + " history, else NAME.check/ beside the file)")
    Path outDir;

    @Option(names = "--no-report", description = "write only results.json, no timeline, plots or junit.xml")
    boolean noReport;

    @Override
    public Integer call() throws IOException {
        if (!resultsFormat.equals("json") && !resultsFormat.equals("edn")) {
            throw new UserError("--results-format: expected json or edn, got '" + resultsFormat + "'");
        }
        if (paths.size() > 1 || Files.isDirectory(paths.get(0))) {
            if (results != null) {
                throw new UserError("--results names one file's results; a corpus check writes check-index.json"
                        + " into --out");
            }
            return new CorpusCheck(this).run();
        }
        Path history = paths.get(0);
        Plan plan = plan(history);
        long t0 = System.nanoTime();
        History h = HistoryInput.read(history, format);
        long t1 = System.nanoTime();
        Path dir = outDir != null ? outDir : defaultOut(history);
        Reports.PlotJob plots = noReport ? null : Reports.startPlots(dir, h);
        CheckResult result = plan.checker().check(h);
        long t2 = System.nanoTime();
        Path out = results != null ? results : RunDir.of(dir).results();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Map<String, Object> about = about(plan, history, h);
        writeResults(out, result, about);
        for (String w : h.warnings()) {
            System.err.println("lockchaos: warning: " + w);
        }
        ConsoleSummary.print(System.out, Reports.headline(about), result);
        System.out.println("  results: " + out);
        if (!noReport) {
            try {
                Reports.writeAll(dir, h, result, about, plots);
                if (Boolean.getBoolean("lockchaos.timing")) {
                    System.err.printf("read %.2f s, check %.2f s, results+reports %.2f s%n", (t1 - t0) / 1e9,
                            (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9);
                }
                System.out.println("  summary: " + RunDir.of(dir).summary());
                System.out.println("  report: " + RunDir.of(dir).timeline());
            } catch (IOException | RuntimeException e) {
                // The verdict stands without the pictures: say what failed and keep the exit code.
                System.err.println("lockchaos: warning: " + dir + ": reports not written (" + e + ")");
            }
        }
        return result.verdict().exitCode();
    }

    /**
     * How one history is checked.
     *
     * @param checker the checkers, made safe
     * @param recipe what the lock promises, or null for a model-only check
     * @param model the linearizability model, or null
     * @param expiry how the model reads releases the history does not show
     * @param recipeFrom where the recipe came from: the test.json's path, "--recipe" or "default"
     * @param testName the test.json's name, or null
     */
    record Plan(Checker checker, Recipe recipe, Model<?> model, Expiry expiry, String recipeFrom, String testName) {
    }

    /**
     * The checkers for {@code history}: {@code --recipe}, else the recipe of its test.json, else mutex; and the
     * {@code --model}, alone when there is no {@code --recipe}.
     *
     * @throws UserError naming the option or the test.json at fault
     */
    Plan plan(Path history) {
        boolean recipeModel = "recipe".equals(model);
        Path sidecar = sidecar(history);
        String fromTest = recipe == null && (model == null || recipeModel) ? recipeOf(sidecar) : null;
        LockRecipe lock = null;
        if (fromTest != null) {
            lock = lockRecipe(fromTest, sidecar + ": recipe: ");
        } else if (recipe != null || model == null || recipeModel) {
            lock = lockRecipe(recipe == null ? "mutex" : recipe, "--recipe: ");
        }
        Recipe r = lock == null ? null : lock.promises();
        Model<?> m = null;
        try {
            if (recipeModel && lock.promises().leadership()) {
                // a model would take a revoked leader for one still holding, and call the next grant impossible
                throw new UserError("--model recipe: " + lock.wireName() + " is a leader election, whose leadership"
                        + " its callbacks take away (REVOKED states), which no model reads: check it without --model");
            }
            if (model != null) {
                m = recipeModel ? lock.model() : Models.parse(model);
            }
        } catch (IllegalArgumentException e) {
            throw new UserError("--" + e.getMessage());
        }
        Expiry e;
        try {
            e = expiry != null ? Expiry.parse(expiry) : Files.isRegularFile(sidecar) ? Expiry.EVIDENCE : Expiry.NONE;
        } catch (IllegalArgumentException x) {
            throw new UserError("--" + x.getMessage());
        }
        List<Checker> checkers = new ArrayList<>();
        if (r != null) {
            checkers.add(Checkers.forRecipe(r));
        }
        if (m != null) {
            checkers.add(new LinearizabilityChecker(m, e, budget(), maxConfigurations));
        }
        Checker c = checkers.size() == 1 ? Checkers.safe(checkers.get(0)) : Checkers.compose("all", checkers);
        return new Plan(c, r, m, e, r == null ? null : fromTest != null ? sidecar.toString()
                : recipe != null ? "--recipe" : "default", nameOf(sidecar));
    }

    Duration budget() {
        Duration budget = Durations.parse("--time-limit", timeLimit);
        if (budget.isZero() || maxConfigurations < 1) {
            throw new UserError("--time-limit must be more than 0 and --max-configurations at least 1");
        }
        return budget;
    }

    /** What results.json says about the check besides the verdict. */
    static Map<String, Object> about(Plan plan, Path history, History h) {
        Map<String, Object> about = new LinkedHashMap<>();
        if (plan.testName() != null) {
            about.put("name", plan.testName());
        }
        about.put("history", history.toString());
        if (plan.recipe() != null) {
            about.put("recipe", plan.recipe().name());
            about.put("recipe_from", plan.recipeFrom());
        }
        if (plan.model() != null) {
            about.put("model", plan.model().name());
            if (plan.model().isLock()) {
                about.put("expiry", plan.expiry().wireName());
            }
        }
        about.put("ops", h.size());
        if (!h.warnings().isEmpty()) {
            about.put("warnings", h.warnings());
        }
        putStalls(about, h);
        return about;
    }

    /**
     * Adds {@code runner_stalls} when the history records any: a history without stall ops may come from a runner
     * without a heartbeat, so an empty list would claim what nobody measured.
     */
    static void putStalls(Map<String, Object> about, History h) {
        List<RunnerStalls.Stall> stalls = RunnerStalls.of(h);
        if (!stalls.isEmpty()) {
            about.put("runner_stalls", RunnerStalls.toMaps(stalls));
        }
    }

    /** results.json, and with {@code --results-format edn} a Jepsen-style results.edn beside it. */
    void writeResults(Path out, CheckResult result, Map<String, Object> about) throws IOException {
        Path edn = writeResultsQuietly(out, result, about);
        if (edn != null) {
            System.out.println("  results.edn: " + edn);
        }
    }

    /** As {@link #writeResults}, printing nothing; returns the results.edn written, or null. */
    Path writeResultsQuietly(Path out, CheckResult result, Map<String, Object> about) throws IOException {
        ResultsJson.write(out, result, about);
        if (!resultsFormat.equals("edn")) {
            return null;
        }
        Path edn = out.resolveSibling(stem(out.getFileName().toString()) + ".edn");
        Files.writeString(edn, ResultsEdn.of(result));
        return edn;
    }

    HistoryFiles.Format format() {
        return format;
    }

    Path outDir() {
        return outDir;
    }

    /** The test.json that describes a history: its run's ({@code history.*} beside test.json), else NAME.test.json. */
    static Path sidecar(Path history) {
        Path run = runFolder(history);
        return run != null ? RunDir.of(run).test()
                : history.toAbsolutePath().getParent().resolve(stem(history.getFileName().toString()) + ".test.json");
    }

    /** The run folder a history is the history of ({@code history.*} beside a test.json), or null. */
    static Path runFolder(Path history) {
        Path dir = history.toAbsolutePath().getParent();
        boolean run = history.getFileName().toString().startsWith("history.")
                && RunDir.of(dir).hasTest();
        return run ? dir : null;
    }

    private static LockRecipe lockRecipe(String name, String where) {
        try {
            return LockRecipe.parse(name);
        } catch (IllegalArgumentException e) {
            throw new UserError(where + e.getMessage());
        }
    }

    /** The recipe a test.json names, or null when there is none (or no file). */
    static String recipeOf(Path testJson) {
        return field(testJson, "recipe");
    }

    private static String nameOf(Path testJson) {
        return field(testJson, "name");
    }

    private static String field(Path testJson, String key) {
        if (!Files.isRegularFile(testJson)) {
            return null;
        }
        try {
            Object o = new com.fasterxml.jackson.databind.ObjectMapper().readValue(testJson.toFile(), Object.class);
            return o instanceof Map<?, ?> m && m.get(key) instanceof String s ? s : null;
        } catch (IOException e) {
            throw new UserError(testJson + ": not a JSON object (" + e.getMessage().lines().findFirst().orElse("")
                    + ")");
        }
    }

    /** {@code RUN/check/} for a run's history, else {@code NAME.check/} beside the file. */
    static Path defaultOut(Path history) {
        Path run = runFolder(history);
        return run != null ? run.resolve("check")
                : history.toAbsolutePath().getParent().resolve(stem(history.getFileName().toString()) + ".check");
    }

    private static String stem(String name) {
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
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
