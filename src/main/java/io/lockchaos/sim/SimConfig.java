package io.lockchaos.sim;

import io.lockchaos.checker.Recipe;

/**
 * Parameters of a simulated run. Build with {@link #defaults(Recipe)} and the {@code with...} methods.
 *
 * @param recipe what the simulated lock promises (mutex, reentrant-mutex, semaphore:N, rw)
 * @param processes concurrent worker slots
 * @param keys number of lock keys
 * @param targetOps stop starting new acquires once this many ops are recorded
 * @param infoRate probability that an acquire ends indeterminate (the client crashed; its session later expires)
 * @param timeoutRate probability that a waiter gives up after a short timeout
 * @param reentryRate probability that a holder of a reentrant lock acquires it again
 * @param fencedWrites whether holders write to a fenced register
 * @param setAdds whether holders add to a lock-protected set (with a final read)
 * @param finale whether to end with a heal marker, a probe acquire per key and a final inspection
 * @param bug the defect to commit once, or NONE
 */
public record SimConfig(Recipe recipe, int processes, int keys, int targetOps, double infoRate, double timeoutRate,
                        double reentryRate, boolean fencedWrites, boolean setAdds, boolean finale, Bug bug) {
    public SimConfig {
        if (processes < 1 || keys < 1 || targetOps < 0) {
            throw new IllegalArgumentException("processes and keys must be >= 1 and targetOps >= 0");
        }
        if (infoRate < 0 || infoRate > 1 || timeoutRate < 0 || timeoutRate > 1 || reentryRate < 0 || reentryRate > 1) {
            throw new IllegalArgumentException("rates must be between 0 and 1");
        }
    }

    public static SimConfig defaults(Recipe recipe) {
        return new SimConfig(recipe, 5, 1, 200, 0.02, 0.05, recipe.reentrant() ? 0.2 : 0, true, true, true, Bug.NONE);
    }

    public SimConfig withProcesses(int n) {
        return new SimConfig(recipe, n, keys, targetOps, infoRate, timeoutRate, reentryRate, fencedWrites, setAdds,
                finale, bug);
    }

    public SimConfig withKeys(int n) {
        return new SimConfig(recipe, processes, n, targetOps, infoRate, timeoutRate, reentryRate, fencedWrites, setAdds,
                finale, bug);
    }

    public SimConfig withTargetOps(int n) {
        return new SimConfig(recipe, processes, keys, n, infoRate, timeoutRate, reentryRate, fencedWrites, setAdds,
                finale, bug);
    }

    public SimConfig withInfoRate(double r) {
        return new SimConfig(recipe, processes, keys, targetOps, r, timeoutRate, reentryRate, fencedWrites, setAdds,
                finale, bug);
    }

    public SimConfig withTimeoutRate(double r) {
        return new SimConfig(recipe, processes, keys, targetOps, infoRate, r, reentryRate, fencedWrites, setAdds,
                finale, bug);
    }

    public SimConfig withResources(boolean fenced, boolean set) {
        return new SimConfig(recipe, processes, keys, targetOps, infoRate, timeoutRate, reentryRate, fenced, set,
                finale, bug);
    }

    public SimConfig withFinale(boolean f) {
        return new SimConfig(recipe, processes, keys, targetOps, infoRate, timeoutRate, reentryRate, fencedWrites,
                setAdds, f, bug);
    }

    public SimConfig withBug(Bug b) {
        return new SimConfig(recipe, processes, keys, targetOps, infoRate, timeoutRate, reentryRate, fencedWrites,
                setAdds, finale, b);
    }
}
