package io.lockchaos.client;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.ContainerAddresses;
import io.lockchaos.cluster.PeerRouting;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A lock service as a run sees it: the servers a lock runs on ({@link Backend}), how its clients are opened in this
 * JVM, how its servers start and what the machine must have for them, what it takes of a workload (declared as data,
 * and judged by {@link #refusal}), which versions a run records, and what its servers still hold at the end. Each
 * service is one package that implements this once and registers it (a line in {@code
 * META-INF/services/io.lockchaos.client.LockService}); the runner, the agents, preflight, the workload validation, the
 * final phase and the explorer ask {@link LockServices} and never branch on which service it is.
 */
public interface LockService {
    /** The servers this service is: the name a user's factory returns and a workload's recipe implies. */
    Backend backend();

    /** Its name in messages ({@code ZooKeeper}, {@code PostgreSQL}). */
    String name();

    /** How progress lines and messages name its servers, in the plural ({@code ZooKeeper server(s)}). */
    String servers();

    /**
     * How they name the servers {@code recipe} runs on, when a recipe brings more than the service's usual ones (a
     * Sentinel recipe's Sentinels): {@link #servers()} by default.
     */
    default String servers(LockRecipe recipe) {
        return servers();
    }

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
     * The servers of {@code plan}, not started yet (the run starts them), of the deployment {@code plan.cluster()}
     * names (for ZooKeeper: child JVMs here, in namespaces, in containers or on SSH hosts), or the user's own at {@code
     * plan.connect()}; closing them stops what was started and nothing else.
     */
    Cluster start(ServerPlan plan) throws IOException;

    /** Where its servers can run: this machine, namespaces, containers, SSH hosts. */
    Set<ClusterKind> clusters();

    /**
     * How its servers in containers are reached from inside their network, for the Toxiproxy container that cuts
     * them; null when it runs none ({@link #clusters} without {@code container}).
     */
    default ContainerAddresses containerAddresses() {
        return null;
    }

    /**
     * The workload keys that set its servers up (ZooKeeper's {@code zookeeper}, {@code first_server_id}, {@code
     * container_check_ms}; PostgreSQL's {@code pg_replication}; Redis' {@code redis_appendonly}): the validation
     * refuses a run on another service the ZooKeeper ones, and {@link #refusalOfOthers} says what else is refused.
     */
    Set<String> keys();

    /** The faults only its servers take (ZooKeeper's disk and membership faults, PostgreSQL's failover). */
    Set<FaultKind> ownFaults();

    /**
     * Its usual set-ups, as workload keys over the defaults, by the column of the Faults page they make (ZooKeeper's
     * local servers and its servers over SSH are two columns): a fault is in a column when some set-up of it takes
     * the fault, as the workload validation decides.
     */
    Map<String, List<Map<String, String>>> setUps();

    /** How its recipes' clients may run in client agents rather than in the runner's JVM. */
    Agents agents();

    /** How a service's clients run in client agents. */
    enum Agents {
        /** Never: in the runner's JVM. */
        NONE,
        /** On lockchaos' own classpath, when {@code client_agents} asks for it (etcd's). */
        OWN_CLASSPATH,
        /** On another Curator release ({@code curator VERSION}), for Curator's recipes (ZooKeeper's). */
        CURATOR_VERSIONS
    }

    /**
     * Whether its clients hold sessions that its servers expire (ZooKeeper's); without, a hold is a lease that ends by
     * itself, and there is nothing to expire.
     */
    boolean sessions();

    /**
     * Whether its servers decide by a majority, so that an even number of them tolerates no more failures than the odd
     * number below it (ZooKeeper, etcd, Redlock's instances; not a PostgreSQL primary with replicas).
     */
    boolean majority();

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

    /**
     * Makes the servers at {@code connect} ready for {@code recipe}'s first client on {@code keys} (the tutorial's
     * hand-written ZooKeeper locks need persistent parents; Curator makes its own).
     */
    default void prepare(String connect, LockRecipe recipe, List<String> keys, int sessionTimeoutMillis)
            throws Exception {
    }

    /**
     * Whether its servers can keep the protected data of a run whose lock is any service's ({@code protected_data}
     * names it): a database, which the run starts beside the lock's servers, as servers of its own ({@link
     * #dataServers}).
     */
    default boolean keepsData() {
        return false;
    }

    /**
     * The servers of the protected data, not started yet, in {@code folder}: one, or with {@code replication} (a
     * run's {@code data_replication}, other than {@code none}) a primary, {@code data:1}, and a streaming replica,
     * {@code data:2}, that a failover can promote, reaching the primary through {@code routing}.
     *
     * @throws UnsupportedOperationException for a service that does not {@link #keepsData}
     */
    default Cluster dataServers(Path folder, String replication, PeerRouting routing) throws IOException {
        throw new UnsupportedOperationException(name() + " keeps no protected data");
    }

    /**
     * Why the protected data cannot be kept as a run asks, or null: {@code replication} is its {@code
     * data_replication}, {@code faults} its faults on the data's servers ({@code data}, {@code data:N}).
     */
    default String dataRefusal(String replication, List<Fault> faults) {
        return keepsData() ? null : name() + " keeps no protected data";
    }

    /**
     * Whether {@code recipe}'s clients keep the protected set themselves, in the lock's own store ({@link
     * io.lockchaos.api.LockClient#transactionalSet}): PostgreSQL's lock taken in the transaction that writes it, whose
     * release is the commit; etcd's fenced lock, whose writes are conditioned on its key. Such a run has no other
     * place for its data ({@code protected_data} is refused), and a lost commit answer is its release's.
     */
    default boolean keepsOwnData(LockRecipe recipe) {
        return false;
    }

    /**
     * A connection to the protected data on the server at {@code address} (host:port: the worker's proxy, or the
     * server itself for the final read), opened at first use; {@code timeout} bounds connecting and each statement,
     * so that a lost answer ends as an unknown outcome.
     *
     * @throws UnsupportedOperationException for a service that does not {@link #keepsData}
     */
    default DataConnection openData(String address, java.time.Duration timeout) {
        throw new UnsupportedOperationException(name() + " keeps no protected data");
    }

    /**
     * Compares the logs a run's servers left in {@code servers} (the run's {@code servers/} folder): ZooKeeper's
     * transaction logs, read with its own reader. Null when this service keeps no logs lockchaos reads.
     *
     * @throws java.io.IOException naming the server whose log could not be read
     */
    default ServerLogs serverLogs(java.nio.file.Path servers) throws java.io.IOException {
        return null;
    }

    /** What this machine lacks to start the service's servers, in one line naming how to get it; null for nothing. */
    String missing();

    /**
     * Fetches what the servers of {@code spec} need before anything starts (ZooKeeper: the jars of the release {@code
     * zookeeper} names, into the local Maven repository once); one line naming the key when it cannot be had, null
     * when it is there.
     */
    default String fetch(ServiceSpec spec) {
        return null;
    }

    /** The versions a run on this service records in test.json beside lockchaos' own (its server, its client). */
    Map<String, String> versions();

    /**
     * What the servers at {@code connect} still hold of {@code keys} at the end of a run: what will never go away by
     * itself, and what will expire (ZooKeeper's lock nodes carry their owner's session id, which the run compares
     * with the sessions it still has open).
     *
     * @throws RuntimeException when the inspection was cut short (the run records why)
     */
    Inspection inspect(String connect, List<String> keys) throws InterruptedException;

    /**
     * What an inspection found, recorded by the final phase as {@code nodes} and {@code expiring}; each service's
     * inspection returns it (there is no second record of the same two lists).
     *
     * @param left what nothing ends (no expiry, no lease): a holder that is gone leaked it
     * @param expiring what ends by itself (a lease still running): no leak, listed for the record
     * @param diverged what some servers hold and others do not, each read on its own after it caught up with the
     *     others (recorded as {@code diverged}: {@code key}, {@code node}, {@code owner}, {@code on}, {@code
     *     missing_on}): replicas that lost transactions, where a service reads each of its servers
     * @param unread the servers such an inspection could not read, left out of its comparison
     */
    record Inspection(List<Map<String, Object>> left, List<Map<String, Object>> expiring,
                      List<Map<String, Object>> diverged, List<String> unread) {
        public Inspection {
            left = List.copyOf(left);
            expiring = List.copyOf(expiring);
            diverged = List.copyOf(diverged);
            unread = List.copyOf(unread);
        }

        /** What a service that reads one view of its servers found. */
        public Inspection(List<Map<String, Object>> left, List<Map<String, Object>> expiring) {
            this(left, expiring, List.of(), List.of());
        }
    }
}
