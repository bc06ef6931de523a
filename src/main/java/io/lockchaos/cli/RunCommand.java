package io.lockchaos.cli;

import io.lockchaos.checker.Verdict;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.core.AnomalyExpectation;
import io.lockchaos.core.Keys;
import io.lockchaos.core.Preflight;
import io.lockchaos.core.RecorderOverhead;
import io.lockchaos.core.ResourceGrowth;
import io.lockchaos.core.Runner;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.report.ConsoleSummary;
import io.lockchaos.report.Reports;
import io.lockchaos.report.RunnerStalls;
import io.lockchaos.report.Throughput;
import io.lockchaos.scenario.Explorer;
import io.lockchaos.scenario.ScenarioResult;
import io.lockchaos.store.RunDir;
import io.lockchaos.store.Store;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code run}: runs a workload against a local ZooKeeper ensemble, stores the run and checks it. */
@Command(name = "run", mixinStandardHelpOptions = true,
        header = "Run clients through a lock under faults on a ZooKeeper ensemble; store and check it.",
        description = {"Runs clients through a lock on a local ZooKeeper ensemble, stores and checks the history.",
            "Exit code: 0 valid, 1 invalid, 2 unknown or error."})
final class RunCommand implements Callable<Integer> {
    private static final String OPTIONS = "options";
    private static final Map<String, String> OPTION_OF = Keys.options();

    @Spec
    CommandSpec self;

    @Option(names = "--workload", description = "workload file (JSON) of test keys over the defaults; each option"
            + " given on the command line overrides its key")
    Path workload;

    @Option(names = "--store", defaultValue = "histories", description = "where runs are stored (default histories)")
    Path store;

    @Option(names = "--connect", description = "run against this existing ensemble (host:port,...) instead of"
            + " starting one; lock paths live under /lockchaos there")
    String connect;

    @Option(names = "--explore", description = "run up to N tests with random fault schedules and parameters"
            + " derived from the seed, and stop at the first invalid one")
    Integer explore;

    @Option(names = "--check-expect", description = "exit 0 when the verdict is the workload's expect (and the"
            + " anomalies its expect_anomalies and expect_no_anomalies), 1 when it is not (a workload without expect"
            + " must be valid); for CI")
    boolean checkExpect;

    @Option(names = "--overhead", description = "measure the recorder: alternate recorded and not-recorded rounds"
            + " of the workers on fresh ensembles and print the median loss (nothing is checked)")
    boolean overhead;

    @Option(names = "--overhead-pairs", defaultValue = "4", description = "with --overhead: judged pairs of rounds,"
            + " after one warm-up pair (default: ${DEFAULT-VALUE})")
    int overheadPairs;

    @Option(names = "--verbose", description = "Curator and ZooKeeper logging on the console (default: the run's"
            + " client.log)")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        TestSpec spec;
        try {
            spec = workload == null ? TestSpec.DEFAULTS : TestSpecs.load(workload);
        } catch (SpecException e) {
            throw new UserError(e.getMessage());
        }
        Map<String, String> o = new LinkedHashMap<>();
        for (Keys.Key k : Keys.ALL) {
            String v = given(k.name());
            if (v != null) {
                o.put(k.name(), k.optionText() == Keys.OptionText.WHOLE_SECONDS
                        ? Long.toString(Durations.wholeSeconds(k.option(), v)) : v);
            }
        }
        if (o.containsKey("recipe") && o.containsKey("lock_class")) {
            throw new UserError("--recipe and --lock-class both name the lock under test: give one");
        }
        if (o.containsKey("lock_class")) {
            o.put("recipe", LockRecipe.Kind.USER.wireName());
        }
        if (!o.containsKey("seed") && (workload == null || spec.seed() == 0)) {
            o.put("seed", Long.toString(System.nanoTime()));
        }
        try {
            spec = TestSpecs.validate(OPTIONS, TestSpecs.with(OPTIONS, spec, o));
        } catch (SpecException e) {
            throw new UserError(byOption(e.getMessage(), o));
        }
        if (connect != null) {
            try {
                ServerNode.ofConnectString(connect);
            } catch (IllegalArgumentException e) {
                throw new UserError("--connect: " + e.getMessage());
            }
        }
        try {
            Preflight.check(spec, connect);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (explore != null) {
            java.nio.file.Files.createDirectories(store);
            ClientLog.redirect(store.resolve("explore-client.log"), verbose);
            return explore(spec);
        }
        Path dir = new Store(store).newRun(spec.name());
        ClientLog.redirect(RunDir.of(dir).clientLog(), verbose);
        Runner.writeTestJson(dir, spec);
        System.out.println("run " + spec.name() + ": " + spec.clients().count() + " clients on "
                + spec.workload().keys() + " key(s) of " + spec.recipe().promises().name() + ", " + (connect == null
                ? spec.cluster().nodes() + " " + spec.cluster().kind().wireName() + " " + spec.recipe().servers()
                + (spec.cluster().linkedZooKeeper() ? ""
                : " of ZooKeeper " + spec.cluster().zooKeeper())
                : "ensemble " + connect)
                + ", " + spec.workload().timeSeconds() + " s, seed " + spec.seed());
        System.out.println("  store: " + dir);
        for (String event : spec.schedule().timeline()) {
            System.out.println("  nemesis: " + event);
        }
        if (overhead) {
            return overhead(spec, dir);
        }
        Runner.Outcome out;
        try {
            out = new Runner(spec, dir, connect).console(System.out).run();
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        boolean any = spec.checking().anyVerdict();
        Verdict expected = spec.expectedVerdict().orElse(Verdict.VALID);
        boolean met = any ? out.result().verdict() != Verdict.UNKNOWN : out.result().verdict() == expected;
        java.util.List<String> after = new java.util.ArrayList<>();
        if (any) {
            after.add("expected any verdict: " + (met ? "reached one" : "NOT reached"));
        } else if (spec.expectedVerdict().isPresent() || checkExpect) {
            after.add("expected " + expected.wireName() + ": " + (met ? "as expected" : "NOT as expected"));
        }
        AnomalyExpectation anomalies = spec.checking().anomalies().forVerdict(any ? null : expected);
        if (!anomalies.isEmpty()) {
            java.util.List<String> misses = anomalies.misses(AnomalyExpectation.seen(out.result()));
            met &= misses.isEmpty();
            after.add("expected anomalies " + anomalies.describe() + ": " + (misses.isEmpty() ? "as expected"
                    : "NOT as expected (" + String.join(", ", misses) + ")"));
        }
        boolean memoryJudged = true;
        long bound = spec.checking().memoryGrowthMb();
        if (bound >= 0) {
            java.util.Optional<ResourceGrowth> growth;
            try {
                growth = ResourceGrowth.of(RunDir.of(dir).resources());
            } catch (java.io.IOException e) {
                throw new UserError(e.getMessage());
            }
            memoryJudged = growth.isPresent();
            met &= growth.map(g -> g.within(bound)).orElse(false);
            after.add(growth.map(g -> g.line(bound)).orElse("memory: not judged against the bound of " + bound
                    + " MB: no live-heap sample after the end of the first minute (runs of 2 minutes or more have"
                    + " one)"));
        }
        if (out.faultsStarted() + out.faultsFailed() > 0) {
            after.add("faults: " + out.faultsStarted() + " applied, " + out.faultsFailed()
                    + " could not be applied (see the nemesis ops in the history)");
        }
        String frozen = RunnerStalls.brief(out.stalls());
        System.out.print(Reports.writeVerdict(dir, RunDir.of(dir).history() + " (" + out.ops()
                + " ops" + (frozen == null ? "" : "; " + frozen + ": sessions may have expired for that alone") + ")",
                out.result(), java.util.List.of(Throughput.line(out.throughput())),
                out.stories(), 1, after));
        // where to look next, as check and report print it
        System.out.println("  results: " + RunDir.of(dir).results());
        System.out.println("  summary: " + RunDir.of(dir).summary());
        System.out.println("  report: " + RunDir.of(dir).timeline());
        if (checkExpect && (!memoryJudged
                || out.result().verdict() == Verdict.UNKNOWN && (any || expected != Verdict.UNKNOWN))) {
            return 2; // undecided is not "not as expected": CI treats it as a warning, as it does without the flag
        }
        return checkExpect ? (met ? 0 : 1) : out.result().verdict().exitCode();
    }

    /** Measures what recording costs (see {@link io.lockchaos.core.RecorderOverhead}) and prints it. */
    private int overhead(TestSpec spec, Path dir) throws Exception {
        RecorderOverhead o;
        try {
            o = RecorderOverhead.measure(new Runner(spec, dir, connect), overheadPairs, p ->
                    System.out.printf(java.util.Locale.ROOT, "  pair %d%s: recorded %.1f, not recorded %.1f"
                            + " acquires/s: %.1f%% loss%n", p.index(), p.judged() ? "" : " (warm-up, not judged)",
                            p.recorded(), p.plain(), p.loss()));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        int n = o.pairs().size();
        System.out.printf(java.util.Locale.ROOT, "  recorder overhead: median %.1f%% throughput loss over %d pairs"
                + " (from %.1f%% to %.1f%%)%n", o.median(), n, o.pairs().get(0), o.pairs().get(n - 1));
        return 0;
    }

    private int explore(TestSpec spec) throws Exception {
        if (explore < 1) {
            throw new UserError("--explore: expected at least 1 run, got " + explore);
        }
        if (connect != null) {
            throw new UserError("--explore runs on the local ensemble; drop --connect");
        }
        java.util.Optional<ScenarioResult> found;
        try {
            found = new Explorer(spec, spec.seed(), store, System.out).explore(explore);
        } catch (SpecException e) {
            throw new UserError(e.getMessage());
        }
        if (found.isEmpty()) {
            System.out.println("explore: no invalid run in " + explore);
            return 0;
        }
        ScenarioResult r = found.get();
        ConsoleSummary.print(System.out, RunDir.of(r.dir()).history().toString(), r.result());
        System.out.println("replay: java -jar target/lockchaos.jar replay " + r.dir());
        System.out.println("shrink: java -jar target/lockchaos.jar shrink " + r.dir());
        return r.verdict().exitCode();
    }

    /**
     * A spec error about the command line, naming the option the user typed rather than the workload key behind it.
     * An error about a key no option set comes from the workload file (or the defaults) and names that, with the
     * options that may have made it impossible (a workload's partition with {@code --nodes 1}).
     */
    /**
     * Adds {@code run}'s option for each workload key that declares one ({@link Keys}), with the key's help and
     * default: called once, as the command line is built.
     */
    static void addKeyOptions(CommandSpec run) {
        for (Keys.Key k : Keys.ALL) {
            if (k.option() == null) {
                continue;
            }
            OptionSpec.Builder b = OptionSpec.builder(k.option()).type(String.class).arity("1")
                    .paramLabel("<" + k.option().substring(2).replace('-', '_') + ">").description(k.optionHelp());
            if (k.name().equals("recipe")) {
                b.completionCandidates(new LockRecipe.Names());
            }
            run.addOption(b.build());
        }
    }

    /** What the command line gave for {@code key}'s option, or null. */
    private String given(String key) {
        Keys.Key k = Keys.named(key);
        OptionSpec o = k == null || k.option() == null ? null : self.findOption(k.option());
        return o == null ? null : o.getValue();
    }

    private String byOption(String message, Map<String, String> given) {
        String rest = message.substring(OPTIONS.length() + 2);
        int colon = rest.indexOf(": ");
        String key = colon < 0 ? "" : rest.substring(0, colon);
        if (given.containsKey(key)) {
            return OPTION_OF.get(key) + rest.substring(colon);
        }
        java.util.List<String> typed = new java.util.ArrayList<>();
        given.forEach((k, v) -> {
            if (!k.equals("seed") || given("seed") != null) { // the seed is always set, typed only with --seed
                typed.add(OPTION_OF.get(k) + " " + v);
            }
        });
        return (workload == null ? "defaults" : workload.toString()) + ": " + rest
                + (typed.isEmpty() ? "" : " (with " + String.join(", ", typed) + ")");
    }

    private static void put(Map<String, String> m, String key, String value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
