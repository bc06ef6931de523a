package io.lockchaos.cli;

import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.Op;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.sim.Bug;
import io.lockchaos.sim.LockSimulator;
import io.lockchaos.sim.RegisterSimulator;
import io.lockchaos.sim.SimConfig;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gen}: writes a simulated history (a correct lock, or one with an injected bug). */
@Command(name = "gen", mixinStandardHelpOptions = true,
        header = "Write a simulated lock history, for benchmarks and experiments.",
        description = "Writes a simulated lock history, for benchmarks and experiments.")
final class GenCommand implements Callable<Integer> {
    @Mixin
    SimOptions sim;

    @Option(names = "--out", required = true, description = "output file; .edn writes Jepsen EDN, else JSON lines")
    Path out;

    @Option(names = "--workload", defaultValue = "lock",
            description = "lock (default), register or cas-register (Jepsen-style registers)")
    String workload;

    @Option(names = "--crashes", defaultValue = "10", description = "register workloads: ops that end info")
    int crashes;

    @Option(names = "--count", defaultValue = "1", description = {"a corpus of this many histories, --out being its"
        + " folder: register workloads in Jepsen's store layout OUT/<workload>/<NNNN>/history.edn, lock workloads in",
        "lockchaos' OUT/gen-<recipe>/<NNNN>/history.jsonl with its test.json; seeds are --seed, --seed+1, ..."
        + " (default ${DEFAULT-VALUE}: one file)"})
    int count;

    @Option(names = "--bug-every", defaultValue = "1", description = "a corpus: inject --bug into every K-th history"
            + " only (default ${DEFAULT-VALUE})")
    int bugEvery;

    @Override
    public Integer call() throws IOException {
        if (!workload.equals("lock")) {
            return registers();
        }
        var config = sim.config();
        long seed = sim.seed();
        if (count != 1) {
            return lockCorpus(config, seed);
        }
        boolean bug;
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            bug = LockSimulator.run(config, seed, writer(w));
        } catch (UncheckedIOException e) {
            throw new UserError(out + ": cannot write (" + e.getCause().getMessage() + ")");
        }
        writeSidecar(config.recipe().name(), seed);
        System.out.println("wrote " + out + " (seed " + seed + ", recipe " + config.recipe().name()
                + (config.bug() == Bug.NONE ? "" : ", bug " + sim.bug + (bug ? " committed"
                : " not committed: the run found no chance")) + ")");
        return 0;
    }

    /** NAME.test.json beside the output: what {@code check} reads to check the history under its recipe. */
    private void writeSidecar(String recipe, long seed) throws IOException {
        Map<String, Object> t = new java.util.LinkedHashMap<>();
        t.put("name", "gen");
        t.put("recipe", recipe);
        t.put("seed", seed);
        t.put("generated_by", "lockchaos gen");
        ResultsJson.writeMap(CheckCommand.sidecar(out), t);
    }

    private int registers() throws IOException {
        if (!workload.equals("register") && !workload.equals("cas-register")) {
            throw new UserError("--workload: unknown workload '" + workload + "' (expected lock, register or"
                    + " cas-register)");
        }
        if (!sim.bug.equals("none") && !sim.bug.equals("stale-read")) {
            throw new UserError("--bug: register workloads take none or stale-read, not '" + sim.bug + "'");
        }
        RegisterSimulator.Config config;
        try {
            config = new RegisterSimulator.Config(sim.processes, sim.keys, sim.ops, crashes,
                    workload.equals("cas-register"), sim.bug.equals("stale-read"));
        } catch (IllegalArgumentException e) {
            throw new UserError("--ops/--processes/--keys/--crashes: " + e.getMessage());
        }
        long seed = sim.seed();
        if (count != 1) {
            return corpus(config, seed);
        }
        RegisterSimulator.Result r = RegisterSimulator.runWithBug(config, seed);
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            r.history().ops().forEach(writer(w));
        } catch (UncheckedIOException e) {
            throw new UserError(out + ": cannot write (" + e.getCause().getMessage() + ")");
        }
        System.out.println("wrote " + out + " (seed " + seed + ", " + workload + ", " + r.history().size() + " ops"
                + (config.staleRead() ? (r.bugCommitted() ? ", stale read committed" : ", stale read not committed")
                : "") + ")");
        return 0;
    }

    /** {@code count} lock histories under {@code out} as stored runs: a store to measure {@code check} on. */
    private int lockCorpus(SimConfig config, long seed) throws IOException {
        if (count < 1 || bugEvery < 1) {
            throw new UserError("--count and --bug-every: expected at least 1, got " + count + " and " + bugEvery);
        }
        Path test = out.resolve("gen-" + config.recipe().name().replace(':', '-'));
        int committed = 0;
        for (int i = 0; i < count; i++) {
            SimConfig c = i % bugEvery == 0 ? config : config.withBug(Bug.NONE);
            Path dir = test.resolve(String.format(java.util.Locale.ROOT, "%04d", i));
            Files.createDirectories(dir);
            try (Writer w = Files.newBufferedWriter(RunDir.of(dir).history(), StandardCharsets.UTF_8)) {
                HistoryWriter hw = new HistoryWriter(w, false);
                committed += LockSimulator.run(c, seed + i, op -> {
                    try {
                        hw.append(op);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }) ? 1 : 0;
            } catch (UncheckedIOException e) {
                throw new UserError(dir + ": cannot write (" + e.getCause().getMessage() + ")");
            }
            Map<String, Object> t = new java.util.LinkedHashMap<>();
            t.put("name", test.getFileName().toString());
            t.put("recipe", config.recipe().name());
            t.put("seed", seed + i);
            t.put("generated_by", "lockchaos gen");
            ResultsJson.writeMap(RunDir.of(dir).test(), t);
        }
        System.out.println("wrote " + count + " " + config.recipe().name() + " histories under " + test + " (seeds "
                + seed + " to " + (seed + count - 1) + (config.bug() == Bug.NONE ? ""
                : ", bug " + sim.bug + " committed in " + committed) + "); check them with: check " + out);
        return 0;
    }

    /**
     * {@code count} register histories under {@code out}, Jepsen's store layout, so {@code check OUT} (and any tool
     * that reads Jepsen stores) finds them: the corpus the README's corpus figures are measured on.
     */
    private int corpus(RegisterSimulator.Config config, long seed) throws IOException {
        if (count < 1 || bugEvery < 1) {
            throw new UserError("--count and --bug-every: expected at least 1, got " + count + " and " + bugEvery);
        }
        int buggy = 0;
        long ops = 0;
        for (int i = 0; i < count; i++) {
            boolean bug = config.staleRead() && i % bugEvery == 0;
            RegisterSimulator.Config c = new RegisterSimulator.Config(config.processes(), config.keys(),
                    config.targetOps(), config.crashes(), config.cas(), bug);
            RegisterSimulator.Result r = RegisterSimulator.runWithBug(c, seed + i);
            Path dir = out.resolve(workload).resolve(String.format(java.util.Locale.ROOT, "%04d", i));
            Files.createDirectories(dir);
            try (Writer w = Files.newBufferedWriter(RunDir.of(dir).historyEdn(), StandardCharsets.UTF_8)) {
                for (Op op : r.history().ops()) {
                    w.write(EdnHistory.toEdn(op));
                    w.write('\n');
                }
            }
            buggy += r.bugCommitted() ? 1 : 0;
            ops += r.history().size();
        }
        System.out.println("wrote " + count + " " + workload + " histories (" + ops + " ops) under " + out.resolve(
                workload) + " (seeds " + seed + " to " + (seed + count - 1) + (config.staleRead() ? ", stale read"
                + " committed in " + buggy : "") + "); check them with: check --model " + workload + " " + out);
        return 0;
    }

    private java.util.function.Consumer<Op> writer(Writer w) {
        boolean edn = out.toString().endsWith(".edn");
        HistoryWriter hw = new HistoryWriter(w, false);
        return op -> {
            try {
                if (edn) {
                    w.write(EdnHistory.toEdn(op));
                    w.write('\n');
                } else {
                    hw.append(op);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
