package io.lockchaos.cli;

import io.lockchaos.checker.Recipe;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.sim.Bug;
import io.lockchaos.sim.SimConfig;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The simulator options shared by {@code gen} and {@code bench}. */
final class SimOptions {
    @Option(names = "--ops", defaultValue = "1000000", description = "ops to generate (default ${DEFAULT-VALUE})")
    int ops;

    @Option(names = "--processes", defaultValue = "100", description = "concurrent processes (default ${DEFAULT-VALUE})")
    int processes;

    @Option(names = "--keys", defaultValue = "1", description = "lock keys (default ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--info-rate", defaultValue = "0.01",
            description = "fraction of acquires that end indeterminate (default ${DEFAULT-VALUE})")
    double infoRate;

    @Option(names = "--timeout-rate", defaultValue = "0.05",
            description = "fraction of acquires that time out (default ${DEFAULT-VALUE})")
    double timeoutRate;

    @Option(names = "--recipe", defaultValue = "reentrant-mutex",
            completionCandidates = LockRecipe.Names.class,
            description = "what the simulated lock promises, as the recipe of that name does: ${COMPLETION-CANDIDATES}"
                    + " except multi (default ${DEFAULT-VALUE})")
    String recipe;

    @Option(names = "--bug", defaultValue = "none",
            description = {"inject one bug: none, over-grant, stale-write, lost-add, overtake (default ${DEFAULT-VALUE});",
                "register workloads: none or stale-read"})
    String bug;

    @Option(names = "--no-resources", description = "only acquire and release: no fenced writes, no set adds")
    boolean noResources;

    @Option(names = "--seed", description = "random seed (default: time-based, printed)")
    Long seed;

    long seed() {
        if (seed == null) {
            seed = System.nanoTime();
        }
        return seed;
    }

    SimConfig config() {
        Recipe r;
        try {
            r = LockRecipe.parse(recipe).promises();
        } catch (IllegalArgumentException e) {
            throw new UserError("--recipe: " + e.getMessage());
        }
        if (r == Recipe.MULTI) {
            throw new UserError("--recipe: the simulator does not model multi-locks");
        }
        Bug b;
        try {
            b = Bug.valueOf(bug.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new UserError("--bug: unknown bug '" + bug + "' (expected none, over-grant, stale-write, lost-add"
                    + " or overtake)");
        }
        try {
            return SimConfig.defaults(r).withProcesses(processes).withKeys(keys).withTargetOps(ops)
                    .withInfoRate(infoRate).withTimeoutRate(timeoutRate).withBug(b)
                    .withResources(!noResources, !noResources);
        } catch (IllegalArgumentException e) {
            throw new UserError("--ops/--processes/--keys/rates: " + e.getMessage());
        }
    }
}
