package io.lockchaos.cli;

import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.sim.LockSimulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gen}: writes a simulated history (a correct lock, or one with an injected bug). */
@Command(name = "gen", mixinStandardHelpOptions = true,
        description = "Writes a simulated lock history, for benchmarks and experiments.")
final class GenCommand implements Callable<Integer> {
    @Mixin
    SimOptions sim;

    @Option(names = "--out", required = true, description = "output file; .edn writes Jepsen EDN, else JSON lines")
    Path out;

    @Override
    public Integer call() throws IOException {
        var config = sim.config();
        long seed = sim.seed();
        boolean edn = out.toString().endsWith(".edn");
        boolean bug;
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            HistoryWriter hw = new HistoryWriter(w, false);
            bug = LockSimulator.run(config, seed, op -> {
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
            });
        } catch (UncheckedIOException e) {
            throw new UserError(out + ": cannot write (" + e.getCause().getMessage() + ")");
        }
        System.out.println("wrote " + out + " (seed " + seed + ", recipe " + config.recipe().name()
                + (config.bug() == io.lockchaos.sim.Bug.NONE ? "" : ", bug " + sim.bug + (bug ? " committed"
                : " not committed: the run found no chance")) + ")");
        return 0;
    }
}
