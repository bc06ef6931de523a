package io.lockchaos.cli;

import io.lockchaos.store.Store;
import io.lockchaos.suite.Suite;
import io.lockchaos.suite.SuiteEntry;
import io.lockchaos.suite.SuiteRecord;
import io.lockchaos.suite.Trends;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code suite [FILES|FOLDERS] --budget 30m}: the nightly job in one command. Runs every workload with its expectation
 * within the budget, writes the suite record and JUnit XML, and compares with the previous suite run.
 */
@Command(name = "suite", mixinStandardHelpOptions = true,
        header = "Run workload files one after another within a budget, as a nightly chaos job does.",
        description = {"Runs each workload (files, or every *.json under folders; default workloads/) with",
            "--check-expect in a JVM of its own, one after another, until the budget runs out. Writes",
            "<store>/suite/<time>/suite.json and junit.xml (one test case per workload) after every workload, and",
            "prints what changed since the previous suite run. Ctrl-C stops the running workload and keeps every",
            "result so far.",
            "Exit code: 1 if a workload missed its expectation, 2 if one crashed, was cut or skipped by the budget,",
            "else 0."})
final class SuiteCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILES|FOLDERS", arity = "0..*", description = "workload files or folders (default:"
            + " workloads/)")
    List<Path> paths;

    @Option(names = "--budget", defaultValue = "30m", description = "how long the suite may run: no workload"
            + " begins after it, a running one is stopped 30 s past it (default: ${DEFAULT-VALUE})")
    String budget;

    @Option(names = "--store", defaultValue = "histories", description = "where the runs and the suite records are"
            + " stored (default: ${DEFAULT-VALUE})")
    Path store;

    @Option(names = "--repeat", defaultValue = "0", description = "run a workload that missed its expectation N"
            + " more times, to measure how often it does (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--mix", description = "the nemesis for workloads without a fault schedule, e.g. 'mix"
            + " kill,pause,isolate-client every 5s for 3s from 2s' (default: they run as they are)")
    String mix;

    @Option(names = "--shrink", description = "shrink each new failure (invalid where the previous suite run did not"
            + " fail) within the budget: RUN_DIR/minimal.json, named in the record")
    boolean shrink;

    @Override
    public Integer call() throws Exception {
        Duration b = Durations.parse("--budget", budget);
        if (b.isZero() || b.isNegative()) {
            throw new UserError("--budget: expected a positive duration, got '" + budget + "'");
        }
        if (repeat < 0 || repeat > 100) {
            throw new UserError("--repeat: expected 0 to 100, got " + repeat);
        }
        List<Path> files;
        try {
            files = Suite.workloads(paths == null || paths.isEmpty() ? List.of(Path.of("workloads")) : paths);
        } catch (java.io.IOException e) {
            throw new UserError(e.getMessage());
        }
        if (files.isEmpty()) {
            throw new UserError((paths == null ? "workloads" : paths.toString()) + ": no workload files (*.json)");
        }
        java.util.Set<String> failingBefore = failingInLastSuite(store.resolve("suite"));
        Path dir = new Store(store).newRun("suite");
        SuiteRecord record = new SuiteRecord(dir, b.toSeconds());
        record.write();
        Suite suite = new Suite(files, b, store, repeat, mix, shrink, failingBefore, System.out, record,
                Main.class.getName());
        System.out.println("suite: " + files.size() + " workload(s), budget " + budget + "; record: " + dir);
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            // Ctrl-C or the CI's SIGTERM: stop the running workload; the main thread records it as cut
            suite.stop();
            try {
                done.await(40, TimeUnit.SECONDS);
                record.write();
            } catch (Exception e) {
                Thread.currentThread().interrupt();
            }
        }, "lockchaos-suite-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            suite.run();
        } finally {
            done.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook writes the record
        }
        record.write();
        long met = record.entries().stream().filter(e -> e.outcome() == SuiteEntry.Outcome.MET)
                .count();
        System.out.println("suite: " + met + " of " + record.entries().size() + " met their expectation; "
                + dir.resolve("suite.json") + ", " + dir.resolve("junit.xml"));
        Trends t = Trends.of(store.resolve("suite"), dir);
        if (t.runs().size() < 2) {
            System.out.println("since the previous suite run: none stored to compare with");
        } else {
            List<String> changes = t.changes();
            System.out.println("since the previous suite run (" + t.runs().get(t.runs().size() - 2).getFileName()
                    + "): " + (changes.isEmpty() ? "no change" : changes.size() + " change(s)"));
            changes.forEach(c -> System.out.println("  " + c));
        }
        return record.exitCode();
    }

    /** The workloads that missed their expectation in the latest suite run stored under {@code suiteRoot}. */
    private static java.util.Set<String> failingInLastSuite(Path suiteRoot) throws java.io.IOException {
        List<Path> runs = Trends.of(suiteRoot, null).runs();
        if (runs.isEmpty()) {
            return java.util.Set.of();
        }
        java.util.Set<String> out = new java.util.HashSet<>();
        for (SuiteEntry e : SuiteRecord.read(runs.get(runs.size() - 1))
                .entries()) {
            if (e.outcome() == SuiteEntry.Outcome.NOT_MET) {
                out.add(e.name());
            }
        }
        return out;
    }
}
