package io.lockchaos.client;

import io.lockchaos.cluster.PeerRouting;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * What a run asks of a lock service's servers ({@link LockService#start}): the parts every service understands, and
 * the run's workload settings by key, so that a service reads the keys that are its own (Redis' {@code
 * redis_appendonly}, PostgreSQL's {@code pg_replication}) without the runner knowing which they are.
 *
 * @param folder where the servers keep their data and logs
 * @param nodes how many servers
 * @param recipe the lock the run takes on them
 * @param clockShift whether a fault moves the servers' clocks (their processes then load the clock library)
 * @param namespaces whether each server runs in a network namespace of its own
 * @param routing how servers reach each other (through proxies, for cuts between them)
 * @param settings a workload key's value as the run's spec holds it (what test.json records)
 */
public record ServerPlan(Path folder, int nodes, LockRecipe recipe, boolean clockShift, boolean namespaces,
                         PeerRouting routing, Function<String, Object> settings) {
    /** The value of the workload key {@code key}. */
    public Object setting(String key) {
        return settings.apply(key);
    }
}
