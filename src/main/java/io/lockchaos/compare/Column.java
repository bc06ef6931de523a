package io.lockchaos.compare;

import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.core.ClientSpec;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.util.List;
import java.util.Map;

/**
 * One column of the tutorial's table: the recipe that stands for a backend, how it is deployed and used, and what the
 * tutorial claims about it.
 *
 * @param title the column's heading
 * @param deployment how the backend runs and the recipe is used, in words (the table's notes say it)
 * @param recipe the recipe every run of the column uses
 * @param nodes its servers
 * @param keys workload keys the column's runs add (how the recipe is used: a client mode, a lease)
 * @param herdRecipes recipes whose waiters' wake-ups the herd row measures, when not the column's own (the ZooKeeper
 *     column's recipe does not count its watch notifications; the tutorial's two hand-written locks, one of them
 *     Curator's algorithm, do)
 * @param sources the source files whose code lines the complexity row counts (bundled in the jar)
 * @param claims the tutorial's value of every row
 */
public record Column(String title, String deployment, String recipe, int nodes, Map<String, String> keys,
                     List<String> herdRecipes, List<String> sources, Map<Claim, String> claims) {
    public Column {
        keys = Map.copyOf(keys);
        herdRecipes = List.copyOf(herdRecipes);
        sources = List.copyOf(sources);
        claims = Map.copyOf(claims);
    }

    /**
     * ZooKeeper: Curator's InterProcessMutex on three servers with 2 s sessions, its client stopping work on SUSPENDED
     * as Curator asks.
     */
    public static Column zooKeeper() {
        return new Column("ZooKeeper", "Curator's InterProcessMutex on 3 servers that fsync every write (ZooKeeper's"
                + " default); 2 s sessions; a client stops work on SUSPENDED", "reentrant-mutex", 3,
                Map.of("client_mode", "stop-on-suspended", "session_timeout_ms", "2000"),
                List.of("naive-herd", "naive-queue"),
                List.of("io/lockchaos/zookeeper/NaiveLock.java", "io/lockchaos/zookeeper/NaiveHerdLock.java"),
                Map.of(Claim.RELIABILITY, "high", Claim.PERFORMANCE, "medium", Claim.COMPLEXITY, "medium",
                        Claim.HERD, "avoidable", Claim.LOCK_TYPES, "exclusive, read-write",
                        Claim.RECOVERY, "automatic"));
    }

    /** Redis: one instance, SET NX PX with a 2 s lease (ZooKeeper's session timeout), a compare-and-delete release. */
    public static Column redis() {
        return new Column("Redis", "SET NX PX with a 2 s lease and a compare-and-delete release, on 1 instance"
                + " without persistence (Redis' default)", "redis-single", 1, Map.of("lease_ms", "2000"), List.of(),
                List.of("io/lockchaos/redis/SingleRedisLock.java", "io/lockchaos/redis/RedisLockClient.java",
                        "io/lockchaos/redis/Scripts.java"),
                Map.of(Claim.RELIABILITY, "medium", Claim.PERFORMANCE, "high", Claim.COMPLEXITY, "low",
                        Claim.HERD, "present", Claim.LOCK_TYPES, "exclusive", Claim.RECOVERY, "needs configuration"));
    }

    /**
     * etcd, which the tutorial's table has no column for (its claims say so): etcd's Lock API on a 2 s lease the client
     * renews, on three members.
     */
    public static Column etcd() {
        String none = "not in the tutorial";
        return new Column("etcd", "etcd's Lock API on a 2 s lease the client renews, on 3 members that fsync every"
                + " write (etcd's default); a client stops when its lease runs out", "etcd-lock", 3,
                Map.of("lease_ms", "2000"), List.of(), List.of("io/lockchaos/etcd/EtcdLock.java"),
                Map.of(Claim.RELIABILITY, none, Claim.PERFORMANCE, none, Claim.COMPLEXITY, none, Claim.HERD, none,
                        Claim.LOCK_TYPES, none, Claim.RECOVERY, none));
    }

    /**
     * The column of any recipe ({@code compare --locks}): the tutorial's own column where the recipe is one of its
     * four, else the same plan on the recipe's service as its usual set-up runs it (3 servers where they decide by a
     * majority and the recipe takes 3, else 1; a 2 s lease for a leased lock, 2 s sessions and stop on SUSPENDED for a session's,
     * client agents on the linked Curator for a leader election), with no
     * claim of the tutorial's and no hand-written code to count.
     *
     * @throws IllegalArgumentException for a name that is no recipe (one line)
     */
    public static Column of(String name) {
        for (Column c : List.of(zooKeeper(), redis(), database(), etcd())) {
            if (c.recipe().equals(name)) {
                return c;
            }
        }
        LockRecipe recipe = LockRecipe.parse(name);
        LockService service = LockServices.of(recipe);
        Map<String, String> keys = new java.util.LinkedHashMap<>();
        if (recipe.promises().leased()) {
            keys.put("lease_ms", "2000");
        }
        if (service.sessions()) {
            keys.put("client_mode", "stop-on-suspended");
            keys.put("session_timeout_ms", "2000");
        }
        if (recipe.promises().leadership()) {
            // in client agents on the linked release: a paused leader then stops whole, its callbacks with it, as a
            // GC pause stops them (in the runner's JVM only the worker's thread would stop)
            keys.put("curator", ClientSpec.LINKED_VERSION);
        }
        int nodes = service.majority() && takes(name, 3) ? 3 : 1;
        String none = "not in the tutorial";
        return new Column(name, name + " on " + nodes + " " + service.servers(recipe) + (keys.isEmpty() ? ""
                : "; " + keys.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(
                java.util.stream.Collectors.joining(", "))), name, nodes, keys, List.of(), List.of(),
                Map.of(Claim.RELIABILITY, none, Claim.PERFORMANCE, none, Claim.COMPLEXITY, none, Claim.HERD, none,
                        Claim.LOCK_TYPES, none, Claim.RECOVERY, none));
    }

    /**
     * Whether the recipe's service takes {@code nodes} servers for it: Redis decides by a majority of instances for
     * the RedLocks, but its single-instance recipes (Redisson's, ShedLock's, Spring's) run on one.
     */
    private static boolean takes(String recipe, int nodes) {
        try {
            TestSpecs.validate("compare", TestSpecs.with("compare", TestSpec.DEFAULTS, Map.of("recipe", recipe,
                    "nodes", Integer.toString(nodes))));
            return true;
        } catch (SpecException e) {
            return false;
        }
    }

    /** The database: PostgreSQL's session-level advisory lock on a connection of its own. */
    public static Column database() {
        return new Column("Database (PostgreSQL)", "a session-level pg_advisory_lock (lock_timeout for the"
                + " acquire's timeout) on a connection per client, 1 server with fsync off", "pg-advisory", 1, Map.of(),
                List.of(),
                List.of("io/lockchaos/pg/AdvisoryLock.java"),
                Map.of(Claim.RELIABILITY, "low", Claim.PERFORMANCE, "low", Claim.COMPLEXITY, "low",
                        Claim.HERD, "present", Claim.LOCK_TYPES, "exclusive", Claim.RECOVERY,
                        "depends on the database"));
    }
}
