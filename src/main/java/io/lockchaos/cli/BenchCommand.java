package io.lockchaos.cli;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checker;
import io.lockchaos.checker.linear.LinearizabilityChecker;
import io.lockchaos.checker.linear.Models;
import io.lockchaos.checker.Checkers;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.report.Reports;
import io.lockchaos.sim.LockSimulator;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench}: generates a history (or takes one), then reads and checks it several times and prints the time of
 * each phase, the read rate and the peak heap. Run it under {@code taskset -c 0} and {@code -Xmx1g} to measure one core
 * and a 1 GB heap.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        header = "Measure reading and checking speed and peak heap on a simulated history.",
        description = "Measures reading (JSONL) and checking speed and peak heap on a simulated history.")
final class BenchCommand implements Callable<Integer> {
    @Mixin
    SimOptions sim;

    @Option(names = "--history", description = "an existing JSONL history to measure instead of a generated one")
    Path history;

    @Option(names = "--repeat", defaultValue = "3", description = "measured rounds after one warm-up (default 3)")
    int repeat;

    @Option(names = "--model", description = "measure the linearizability checker with this model instead of the"
            + " dedicated checkers")
    String model;

    @Option(names = "--reports", description = {"also write every report of each round's history (timeline, plots,",
        "summary, junit.xml) into this folder after the check, one after another, and time that apart from the total",
        "of reading and checking"})
    Path reports;

    @Override
    public Integer call() throws Exception {
        Path file = history;
        boolean temp = false;
        var config = sim.config();
        Checker checker;
        try {
            checker = model == null ? Checkers.forRecipe(config.recipe())
                    // as check reads it: a generated history, or a file with a test.json beside it, is a lockchaos
                    // run's; any other file is read as Knossos would read it
                    : new LinearizabilityChecker(Models.parse(model), history == null
                            || Files.isRegularFile(CheckCommand.sidecar(history))
                            ? io.lockchaos.checker.linear.Expiry.EVIDENCE : io.lockchaos.checker.linear.Expiry.NONE);
        } catch (IllegalArgumentException e) {
            throw new UserError("--" + e.getMessage());
        }
        if (file == null) {
            file = Files.createTempFile("lockchaos-bench", ".jsonl");
            temp = true;
            long seed = sim.seed();
            long t0 = System.nanoTime();
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                HistoryWriter hw = new HistoryWriter(w, false);
                LockSimulator.run(config, seed, op -> {
                    try {
                        hw.append(op);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
            }
            System.out.printf(Locale.ROOT, "generated %s (%d MB, seed %d) in %.2f s%n", file,
                    Files.size(file) >> 20, seed, (System.nanoTime() - t0) / 1e9);
        }
        try {
            System.out.printf(Locale.ROOT, "cores available: %d, max heap: %d MB%n",
                    Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
            for (int round = 0; round <= repeat; round++) {
                System.gc();
                resetPeaks();
                long t0 = System.nanoTime();
                History h = JsonlHistoryReader.read(file);
                long t1 = System.nanoTime();
                CheckResult r = checker.check(h);
                long t2 = System.nanoTime();
                String drawn = "";
                if (reports != null) {
                    // no plot job: the plots are drawn after the timeline, on this thread, so this is the whole cost
                    Reports.writeAll(reports, h, r, Map.of("history", file.toString()), null);
                    drawn = String.format(Locale.ROOT, "; reports %.3f s", (System.nanoTime() - t2) / 1e9);
                }
                System.out.printf(Locale.ROOT,
                        "%s: %d ops; read %.3f s (%.0f ops/s); check %.3f s; total %.3f s%s; verdict %s;"
                                + " peak heap %d MB%n",
                        round == 0 ? "warm-up" : "round " + round, h.size(), (t1 - t0) / 1e9,
                        h.size() / ((t1 - t0) / 1e9), (t2 - t1) / 1e9, (t2 - t0) / 1e9, drawn,
                        r.verdict().wireName(), peakHeap() >> 20);
            }
        } finally {
            if (temp) {
                Files.deleteIfExists(file);
            }
        }
        return 0;
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
