package io.lockchaos.client;

import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.PeerRouting;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;
import org.testcontainers.containers.Network;

/**
 * What a run asks of a lock service's servers ({@link LockService#start}): the parts every service understands, and
 * the run's workload settings by key, so that a service reads the keys that are its own (Redis' {@code
 * redis_appendonly}, PostgreSQL's {@code pg_replication}, ZooKeeper's {@code zookeeper} and {@code hosts}) without the
 * runner knowing which they are.
 *
 * @param folder where the servers keep their data and logs
 * @param nodes how many servers
 * @param recipe the lock the run takes on them
 * @param cluster where the servers run: this machine, namespaces, containers, SSH hosts
 * @param connect the servers the user already has ({@code --connect}, for a service that {@link
 *     LockService#takesExistingServers takes them}), or null: the service starts its own
 * @param clockShift whether a fault moves the servers' clocks (their processes then load the clock library)
 * @param membership what the run's faults ask of the servers' membership
 * @param routing how servers reach each other (through proxies, for cuts between them)
 * @param network the Docker network a container run's servers share with its proxies (made on first use)
 * @param settings a workload key's value as the run's spec holds it (what test.json records)
 */
public record ServerPlan(Path folder, int nodes, LockRecipe recipe, ClusterKind cluster, String connect,
                         boolean clockShift, Membership membership, PeerRouting routing, Supplier<Network> network,
                         Function<String, Object> settings) {
    /**
     * What the run's faults ask of the servers' membership.
     *
     * @param reconfigurable whether a fault adds, removes or replaces a server (dynamic reconfiguration on)
     * @param spares how many servers the faults add beyond {@code nodes}
     */
    public record Membership(boolean reconfigurable, int spares) {
        /** No fault changes who the servers are. */
        public static final Membership FIXED = new Membership(false, 0);
    }

    /** Whether each server runs in a network namespace of its own. */
    public boolean namespaces() {
        return cluster == ClusterKind.NETNS;
    }

    /** The value of the workload key {@code key}. */
    public Object setting(String key) {
        return settings.apply(key);
    }

    /** The value of the text key {@code key}. */
    public String text(String key) {
        return String.valueOf(setting(key));
    }

    /** The value of the whole-number key {@code key}. */
    public long number(String key) {
        return ((Number) setting(key)).longValue();
    }
}
