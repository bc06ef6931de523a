package io.lockchaos.cli;

import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.sim.LockSimulator;
import io.lockchaos.sim.RegisterSimulator;
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

    @Override
    public Integer call() throws IOException {
        if (!workload.equals("lock")) {
            return registers();
        }
        var config = sim.config();
        long seed = sim.seed();
        boolean bug;
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            bug = LockSimulator.run(config, seed, writer(w));
        } catch (UncheckedIOException e) {
            throw new UserError(out + ": cannot write (" + e.getCause().getMessage() + ")");
        }
        writeSidecar(config.recipe().name(), seed);
        System.out.println("wrote " + out + " (seed " + seed + ", recipe " + config.recipe().name()
                + (config.bug() == io.lockchaos.sim.Bug.NONE ? "" : ", bug " + sim.bug + (bug ? " committed"
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
        io.lockchaos.report.ResultsJson.writeMap(CheckCommand.sidecar(out), t);
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

    private java.util.function.Consumer<io.lockchaos.history.Op> writer(Writer w) {
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
