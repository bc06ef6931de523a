package io.lockchaos.suite;

import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs workload files one after another within a time budget, each as {@code run --workload FILE --check-expect} in
 * a JVM of its own (a run that crashes or hangs takes nothing else with it, and stopping one is stopping a process:
 * its shutdown hooks take its servers down), and keeps what each did in a {@link SuiteRecord}. A workload without a
 * fault schedule gets the suite's mix. The record is complete after every workload, so whatever stops the suite, the
 * results so far are kept.
 */
public final class Suite {
    /** How long past the budget a running workload may go before it is stopped. */
    static final Duration GRACE = Duration.ofSeconds(30);

    private final List<Path> files;
    private final Duration budget;
    private final Path store;
    private final int repeat;
    private final String mix;
    private final boolean shrink;
    private final String main;
    private final java.util.Set<String> failingBefore;
    private final PrintStream console;
    private final SuiteRecord record;
    private Process current;
    private boolean stopped;

    /**
     * @param files the workload files, in the order to run them
     * @param repeat runs made again of a workload that missed its expectation, to measure how often it does
     * @param mix the nemesis given to a workload without a fault schedule, or null to run it as it is
     * @param record where the results go (its folder holds the runs' console logs)
     * @param shrink shrink each new failure (an invalid run of a workload that the previous suite run did not find
     *     failing) within the budget, with {@code shrink RUN_DIR} in a JVM of its own
     * @param failingBefore the workloads (by name) that missed their expectation in the previous suite run
     * @param main the class whose {@code main} runs a workload in a JVM of its own (the command line's, which this
     *     package does not name: the command line calls the suite, not the other way round)
     */
    public Suite(List<Path> files, Duration budget, Path store, int repeat, String mix, boolean shrink,
                 java.util.Set<String> failingBefore, PrintStream console, SuiteRecord record, String main) {
        this.main = main;
        this.shrink = shrink;
        this.failingBefore = java.util.Set.copyOf(failingBefore);
        this.files = List.copyOf(files);
        this.budget = budget;
        this.store = store;
        this.repeat = repeat;
        this.mix = mix;
        this.console = console;
        this.record = record;
    }

    /** The workload files under {@code paths}: files as given, folders' {@code *.json} in name order, recursively. */
    public static List<Path> workloads(List<Path> paths) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (var s = Files.walk(p)) {
                    s.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(".json")).sorted()
                            .forEach(out::add);
                }
            } else if (Files.isRegularFile(p)) {
                out.add(p);
            } else {
                throw new IOException(p + ": no such file or folder");
            }
        }
        return out;
    }

    /** Runs every workload; returns the record. */
    public SuiteRecord run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + budget.toNanos();
        for (Path file : files) {
            if (isStopped()) {
                break;
            }
            TestSpec spec;
            try {
                spec = TestSpecs.load(file);
            } catch (SpecException e) {
                record.add(new SuiteEntry(file.toString(), nameOf(file), SuiteEntry.Outcome.CRASHED, "", "", 0, "",
                        "", e.getMessage(), e.getMessage(), 0, 0));
                console.println("  " + file + ": " + e.getMessage());
                continue;
            }
            String expected = spec.checking().anyVerdict() ? "any"
                    : spec.expectedVerdict().map(v -> v.wireName()).orElse("valid");
            if (System.nanoTime() >= deadline) {
                record.add(new SuiteEntry(file.toString(), spec.name(), SuiteEntry.Outcome.SKIPPED, "", expected, 0,
                        "", "", "", "", 0, 0));
                console.println(String.format("%-8s %s (the budget ran out before it began)", "skipped",
                        spec.name()));
                continue;
            }
            boolean mixed = mix != null && spec.schedule().events().isEmpty() && spec.faults().nemesis().isBlank();
            Attempt a = attempt(file, spec.name(), mixed, deadline);
            int reproduced = 0;
            int repeats = 0;
            if (a.outcome() == SuiteEntry.Outcome.NOT_MET) {
                for (int i = 0; i < repeat && System.nanoTime() < deadline && !isStopped(); i++) {
                    Attempt again = attempt(file, spec.name(), mixed, deadline);
                    if (again.outcome() == SuiteEntry.Outcome.MET || again.outcome() == SuiteEntry.Outcome.NOT_MET) {
                        repeats++;
                        reproduced += again.outcome() == SuiteEntry.Outcome.NOT_MET ? 1 : 0;
                    }
                }
            }
            String minimal = "";
            if (shrink && a.outcome() == SuiteEntry.Outcome.NOT_MET && a.verdict().equals("invalid")
                    && !failingBefore.contains(spec.name()) && System.nanoTime() < deadline && !isStopped()) {
                minimal = shrunk(spec.name(), a.runDir(), deadline);
            }
            SuiteEntry e = new SuiteEntry(file.toString(), spec.name(), a.outcome(), a.verdict(), expected,
                    a.seconds(), a.runDir(), a.runDir().isEmpty() ? "" : "bin/lockchaos replay " + a.runDir(),
                    a.firstStory(), a.summary(), reproduced, repeats, minimal);
            record.add(e);
            console.println(String.format("%-8s %s: %s (expected %s), %.1f s%s%s%s", e.outcome().wireName(), e.name(),
                    e.verdict().isEmpty() ? "no verdict" : e.verdict(), expected, e.seconds(),
                    repeats > 0 ? ", missed again in " + reproduced + " of " + repeats + " reruns" : "",
                    e.runDir().isEmpty() ? "" : "  " + e.runDir(), minimal.isEmpty() ? "" : "; shrunk to " + minimal));
        }
        return record;
    }

    /**
     * Shrinks a new failure's run with {@code shrink RUN_DIR} (one run per candidate, at most 8 candidates, the result
     * run twice) in a JVM of its own, stopped at the budget like a run; returns its {@code minimal.json}, or empty.
     */
    private String shrunk(String name, String runDir, long deadline) throws IOException, InterruptedException {
        if (runDir.isEmpty()) {
            return "";
        }
        Process p = child(List.of("shrink", runDir, "--attempts", "1", "--max-runs", "8", "--rate-runs", "2"),
                Files.createTempFile(record.dir(), name + "-shrink-", ".log"));
        if (p == null) {
            return "";
        }
        boolean ended = p.waitFor(Math.max(deadline - System.nanoTime() + GRACE.toNanos(), 0), TimeUnit.NANOSECONDS);
        if (!ended) {
            stop(p);
        }
        synchronized (this) {
            current = null;
        }
        Path minimal = Path.of(runDir, "minimal.json");
        return ended && Files.isRegularFile(minimal) ? minimal.toString() : "";
    }

    /** Starts {@code main ARGS} in a JVM of its own, its output to {@code log}; null once the suite is stopped. */
    private Process child(List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(inheritedFlags());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        // the run's own watchdog ends it (and so its servers) if this JVM is killed
        pb.environment().put("LOCKCHAOS_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
        synchronized (this) {
            if (stopped) {
                return null;
            }
            current = pb.start();
            return current;
        }
    }

    /**
     * This JVM's compiler setting and class-data archive, for a child: the launcher starts the suite with C1 only and
     * the jar's archive, and a run started without them used up to twice the CPU in its runner (the optimising
     * compiler's threads) on two cores. Nothing else is passed on: a child keeps the JVM's default collector, as a
     * run should.
     */
    static List<String> inheritedFlags() {
        List<String> out = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-XX:TieredStopAtLevel=") || a.startsWith("-XX:SharedArchiveFile=")
                    || a.startsWith("-Xlog:cds")) {
                out.add(a);
            }
        }
        return out;
    }

    private static String nameOf(Path file) {
        String n = file.getFileName().toString();
        return n.endsWith(".json") ? n.substring(0, n.length() - 5) : n;
    }

    /** What one run of a workload did. */
    private record Attempt(SuiteEntry.Outcome outcome, String verdict, double seconds, String runDir,
                           String firstStory, String summary) {
    }

    private Attempt attempt(Path file, String name, boolean mixed, long deadline)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile(record.dir(), name + "-", ".log");
        List<String> args = new ArrayList<>(List.of("run", "--workload", file.toString(), "--check-expect", "--store",
                store.toString()));
        if (mixed) {
            args.addAll(List.of("--nemesis", mix));
        }
        long t0 = System.nanoTime();
        Process p = child(args, log);
        if (p == null) {
            return new Attempt(SuiteEntry.Outcome.CUT, "", 0, "", "", "");
        }
        long left = deadline - System.nanoTime() + GRACE.toNanos();
        boolean ended = p.waitFor(Math.max(left, 0), TimeUnit.NANOSECONDS);
        if (!ended) {
            stop(p);
        }
        synchronized (this) {
            current = null;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String out = Files.readString(log, StandardCharsets.UTF_8);
        String runDir = "";
        String firstStory = "";
        for (String line : out.split("\n")) {
            if (runDir.isEmpty() && line.startsWith("  store: ")) {
                runDir = line.substring("  store: ".length()).trim();
            } else if (firstStory.isEmpty() && line.startsWith("  ! ") && !line.startsWith("  ! live:")) {
                firstStory = line.substring(4).trim();
            }
        }
        String verdict = "";
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\): (VALID|INVALID|UNKNOWN)\\n").matcher(out);
        if (m.find()) {
            verdict = m.group(1).toLowerCase(java.util.Locale.ROOT);
        }
        String summary = out;
        if (!runDir.isEmpty() && Files.isRegularFile(Path.of(runDir, "summary.txt"))) {
            summary = Files.readString(Path.of(runDir, "summary.txt"), StandardCharsets.UTF_8);
        }
        SuiteEntry.Outcome outcome;
        if (!ended || stopped) {
            outcome = SuiteEntry.Outcome.CUT;
        } else if (verdict.isEmpty() || p.exitValue() == 2 && !verdict.equals("unknown")) {
            outcome = SuiteEntry.Outcome.CRASHED;
            if (firstStory.isEmpty()) {
                firstStory = lastLine(out);
            }
        } else {
            outcome = p.exitValue() == 0 ? SuiteEntry.Outcome.MET : SuiteEntry.Outcome.NOT_MET;
        }
        return new Attempt(outcome, verdict, seconds, runDir, firstStory, summary);
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].trim();
    }

    /** SIGTERM (its hooks close its servers and write what it can), then SIGKILL 20 s later. */
    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private synchronized boolean isStopped() {
        return stopped;
    }

    /** Stops the suite: the running workload is stopped and recorded as cut, no other begins. For Ctrl-C. */
    public void stop() {
        Process p;
        synchronized (this) {
            stopped = true;
            p = current;
        }
        if (p != null) {
            try {
                stop(p);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
