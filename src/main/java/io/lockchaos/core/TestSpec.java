package io.lockchaos.core;

import io.lockchaos.checker.Verdict;
import io.lockchaos.client.AfterUnknownCommit;
import io.lockchaos.client.DataFencing;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.fault.Schedule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A test, as data. Every field has a default ({@link #DEFAULTS}); workload files and command-line options override
 * them by key through {@link TestSpecs}, which is the only place a spec is built, so the grouped records below never
 * meet a positional list of same-typed numbers.
 *
 * @param name the test's name (its folder under histories/)
 * @param seed the run's seed (printed at start): the workload and random fault mixes derive from it
 * @param recipe the lock under test
 * @param cluster the ensemble
 * @param clients the workers' clients
 * @param workload what the workers do
 * @param faults the fault schedule
 * @param checking how the run is judged beyond the recipe's checkers
 * @param redis how the Redis recipes lock
 * @param values every key's text, as read and checked: what {@link #number}, {@link #text} and {@link #flag} give the
 *     keys no record holds
 */
public record TestSpec(String name, long seed, LockRecipe recipe, ClusterSpec cluster, ClientSpec clients,
                       WorkloadSpec workload, FaultSpec faults, CheckSpec checking, RedisSpec redis,
                       Map<String, String> values) {
    /** The defaults: a 3-node local ensemble, 10 clients of Curator's InterProcessMutex for 10 s, no faults. */
    public static final TestSpec DEFAULTS = TestSpecs.defaults();

    public TestSpec {
        Objects.requireNonNull(name);
        Objects.requireNonNull(recipe);
        Objects.requireNonNull(cluster);
        Objects.requireNonNull(clients);
        Objects.requireNonNull(workload);
        Objects.requireNonNull(faults);
        Objects.requireNonNull(checking);
        Objects.requireNonNull(redis);
        values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
    }

    private String valueOf(String key, Keys.Type... types) {
        Keys.Key k = Keys.named(key);
        if (k == null || !java.util.Arrays.asList(types).contains(k.type())) {
            throw new IllegalArgumentException("no " + java.util.Arrays.toString(types) + " key named " + key);
        }
        return values.getOrDefault(key, k.defaultText());
    }

    /** A whole-number key's value (checked against its declared range when the spec was built). */
    public long number(String key) {
        return Long.parseLong(valueOf(key, Keys.Type.INT, Keys.Type.LONG));
    }

    /** A text key's value. */
    public String text(String key) {
        return valueOf(key, Keys.Type.TEXT);
    }

    /**
     * The service whose server keeps the protected data ({@code protected_data}), or null when the runner's memory
     * does.
     *
     * @throws IllegalArgumentException naming the key, for a value that names no service that keeps data
     */
    public LockService dataService() {
        String v = text("protected_data");
        if (v.equals("memory")) {
            return null;
        }
        for (LockService service : LockServices.all()) {
            if (service.keepsData() && service.backend().name().equalsIgnoreCase(v)) {
                return service;
            }
        }
        List<String> names = new ArrayList<>(List.of("memory"));
        LockServices.all().stream().filter(LockService::keepsData)
                .forEach(d -> names.add(d.backend().name().toLowerCase(Locale.ROOT)));
        throw new IllegalArgumentException("protected_data: expected " + String.join(" or ", names) + ", got '" + v
                + "'");
    }

    /** Whether the protected data's server has a replica, and how commits wait for it ({@code data_replication}). */
    public String dataReplication() {
        return text("data_replication");
    }

    /** What a holder does after a commit to the protected data went unanswered ({@code after_unknown_commit}). */
    public AfterUnknownCommit afterUnknownCommit() {
        return AfterUnknownCommit.parse(text("after_unknown_commit"));
    }

    /** How writes to the protected data in a database use the grant's token ({@code data_fencing}). */
    public DataFencing dataFencing() {
        return DataFencing.parse(text("data_fencing"));
    }

    /** A true-or-false key's value. */
    public boolean flag(String key) {
        return Boolean.parseBoolean(valueOf(key, Keys.Type.BOOL));
    }

    /**
     * Whether the clients run in client agents: a lock of the user's own, another Curator, or {@code client_agents}
     * (an etcd recipe on lockchaos' own classpath).
     */
    public boolean inAgents() {
        return recipe.user() != null || clients.agents() || flag("client_agents") || !text("client_hosts").isBlank();
    }

    /**
     * Whether servers are cut apart with iptables in their network namespaces (netns always, containers when asked)
     * rather than by a proxy per pair of servers.
     */
    public boolean cutsWithIptables() {
        return cluster.namespaces() || cluster.ssh()
                || cluster.containers() && faults.partitioner() == PartitionerChoice.IPTABLES;
    }

    /** The fault schedule, with random mixes expanded from the seed. */
    public Schedule schedule() {
        return Schedule.parse(faults.nemesis(), seed, workload.timeSeconds() * 1000,
                () -> FaultSupport.combinable(this));
    }

    /** How long the final quiesce lasts. */
    public long quiesce() {
        // what a fault left behind is gone after a session timeout and a second; without sessions (Redis) a second for
        // restarted instances, since the final probes wait out a lease that a fault left running
        return faults.quiesceMillis() >= 0 ? faults.quiesceMillis()
                : faults.none() ? 0
                : !LockServices.of(recipe).sessions() ? 1000 : clients.sessionTimeoutMillis() + 1000;
    }

    /**
     * The verdict this run is expected to reach on the Curator its clients run and, for a service whose servers run
     * the release {@code zookeeper} names, on that release, if the workload states one.
     */
    public java.util.Optional<Verdict> expectedVerdict() {
        boolean release = LockServices.of(recipe).keys().contains("zookeeper");
        return checking.expected(clients.curatorVersion(), release ? cluster.zooKeeperVersion() : null);
    }

    /** The spec as the key/value map a workload file holds (the keys workload files have always used). */
    public Map<String, Object> toMap() {
        return Keys.toMap(this);
    }
}
