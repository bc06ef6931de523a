package io.lockchaos.client;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.cluster.Cluster;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A lock service as a run sees it: the servers a lock runs on ({@link Backend}), how its clients are opened in this
 * JVM, what the machine must have, which versions a run records, and what its servers still hold at the end. Each
 * service is one package that implements this once and registers it (a line in {@code
 * META-INF/services/io.lockchaos.client.LockService}); the runner, the agents, preflight and the final phase ask
 * {@link LockServices} and never branch on which service it is.
 */
public interface LockService {
    /** The servers this service is: the name a user's factory returns and a workload's recipe implies. */
    Backend backend();

    /** How progress lines and messages name its servers, in the plural ({@code ZooKeeper server(s)}). */
    String servers();

    /**
     * The factory of {@code recipe}'s clients in this JVM (the runner's or an agent's).
     *
     * @throws IllegalArgumentException when the recipe is not one of this service's own
     */
    LockFactory factory(LockRecipe recipe);

    /**
     * Whether a run may lock on servers the user already has ({@code --connect}) rather than start its own.
     */
    boolean takesExistingServers();

    /**
     * The servers of {@code plan}, not started yet; null when the run starts them itself (ZooKeeper's ensembles of
     * every kind: local, in namespaces, in containers, on SSH hosts, or the user's own).
     */
    Cluster start(ServerPlan plan) throws IOException;

    /**
     * Why this service cannot run {@code spec}, as one line naming the key ({@code nodes: ...}); null when it can. Only
     * what is the service's own: the set-ups its servers take, its keys' values, and the faults it takes.
     */
    String refusal(ServiceSpec spec);

    /**
     * Why a run on another service cannot use what is this service's own (a key set away from its default, a fault
     * only its servers take), as {@link #refusal} says it; null when it does not.
     */
    default String refusalOfOthers(ServiceSpec spec) {
        return null;
    }

    /** What this machine lacks to start the service's servers, in one line naming how to get it; null for nothing. */
    String missing();

    /** The versions a run on this service records in test.json beside lockchaos' own (its server, its client). */
    Map<String, String> versions();

    /**
     * What the servers at {@code connect} still hold of {@code keys} at the end of a run: what will never go away by
     * itself, and what will expire. Null when the run inspects the service itself (ZooKeeper's nodes are read on a
     * session of the run, beside the sessions it still has open).
     *
     * @throws RuntimeException when the inspection was cut short (the run records why)
     */
    Inspection inspect(String connect, List<String> keys) throws InterruptedException;

    /** What an inspection found: the entries a final phase records as {@code nodes} and {@code expiring}. */
    record Inspection(List<Map<String, Object>> left, List<Map<String, Object>> expiring) {
        public Inspection {
            left = List.copyOf(left);
            expiring = List.copyOf(expiring);
        }
    }
}
