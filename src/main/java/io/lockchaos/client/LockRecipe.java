package io.lockchaos.client;

import io.lockchaos.api.Backend;
import io.lockchaos.api.Promises;
import io.lockchaos.checker.Recipe;
import io.lockchaos.checker.linear.Model;
import io.lockchaos.checker.linear.Models;
import java.util.List;

/**
 * A lock under test, as a run knows it: how a client opens it, what it promises (which decides the checkers and the
 * linearizability model) and what the workload may do with it. Every decision that depends on the recipe is made
 * here, once, so adding a recipe means adding a {@link Kind} and nothing else.
 *
 * @param kind the recipe
 * @param permits the leases of a semaphore; 1 for every other kind
 * @param user the user's lock, for {@link Kind#USER}; for a library's recipe ({@link Kind#library}), the library's
 *     factory and the classpath its version resolved to (null where only its name was read: a stored history's
 *     checkers need no classpath); null for every other kind
 */
public record LockRecipe(Kind kind, int permits, UserLock user) {
    /**
     * The recipes lockchaos can drive: Curator's, the tutorial's hand-written locks on raw ZooKeeper, and the Redis locks
     * (the tutorial's RedLock, Redlock as specified, and one instance's SET NX PX).
     */
    public enum Kind {
        /** Curator's InterProcessSemaphoreMutex. */
        MUTEX("mutex", Backend.ZOOKEEPER, true, Recipe.MUTEX),
        /** Curator's InterProcessMutex. */
        REENTRANT_MUTEX("reentrant-mutex", Backend.ZOOKEEPER, true, Recipe.REENTRANT_MUTEX),
        /** Curator's InterProcessSemaphoreV2 with N leases (its promises depend on N: see {@link #promises()}). */
        SEMAPHORE("semaphore:N", Backend.ZOOKEEPER, true, Recipe.semaphore(1)),
        /** Curator's InterProcessReadWriteLock. */
        READ_WRITE("rw", Backend.ZOOKEEPER, true, Recipe.READ_WRITE),
        /** Curator's InterProcessMultiLock over one InterProcessMutex per key. */
        MULTI("multi", Backend.ZOOKEEPER, true, Recipe.MULTI),
        /**
         * Curator's LeaderLatch: leadership is the hold, granted when the latch's node comes first and taken away by
         * its {@code notLeader} (SUSPENDED, LOST); the latch stays in the election after that and re-joins by itself.
         */
        LEADER_LATCH("leader-latch", Backend.ZOOKEEPER, true, new Recipe("leader-latch",
                Promises.exclusive().withOwnerOnlyRelease().withLeadership())),
        /**
         * Curator's LeaderSelector: the hold is {@code takeLeadership} running, ended by returning or by the
         * interruption Curator's listener adapter makes on SUSPENDED and LOST.
         */
        LEADER_SELECTOR("leader-selector", Backend.ZOOKEEPER, true, new Recipe("leader-selector",
                Promises.exclusive().withOwnerOnlyRelease().withLeadership())),
        /** The tutorial's exclusive lock: one ephemeral node, retried until it can be created. */
        NAIVE_EXCLUSIVE("naive-exclusive", Backend.ZOOKEEPER, false, Recipe.queued("naive-exclusive", false)),
        /** The tutorial's read/write lock on sequential nodes. */
        NAIVE_RW("naive-rw", Backend.ZOOKEEPER, false, Recipe.queued("naive-rw", true)),
        /** The tutorial's sequential lock whose waiters all watch the parent (the herd effect). */
        NAIVE_HERD("naive-herd", Backend.ZOOKEEPER, false, Recipe.queued("naive-herd", false)),
        /** The tutorial's sequential lock whose waiters watch their predecessor only. */
        NAIVE_QUEUE("naive-queue", Backend.ZOOKEEPER, false, Recipe.queued("naive-queue", false)),
        /** One Redis instance: SET NX PX with a random value, released by compare-and-delete. */
        REDIS_SINGLE("redis-single", Backend.REDIS, false, Recipe.lease("redis-single")),
        /** The tutorial's RedLock, ported with its defects (GET-then-DEL release, no drift allowance, no retry delay). */
        REDLOCK_TUTORIAL("redlock-tutorial", Backend.REDIS, false, Recipe.lease("redlock-tutorial")),
        /** Redlock as its author specifies it, over N independent instances. */
        REDLOCK("redlock", Backend.REDIS, false, Recipe.lease("redlock")),
        /** Redisson's RLock on one instance, its lease renewed by Redisson's watchdog. */
        REDISSON("redisson", Backend.REDIS, false, Recipe.lease("redisson")),
        /** Redisson's RFencedLock on one instance: RLock with a fencing token per acquisition. */
        REDISSON_FENCED("redisson-fenced", Backend.REDIS, false, Recipe.lease("redisson-fenced")),
        /**
         * Redisson's RLock on a primary with two replicas under three Redis Sentinels: Redisson finds the primary
         * through the Sentinels and follows their failovers; replication is asynchronous.
         */
        REDISSON_SENTINEL("redisson-sentinel", Backend.REDIS, false, Recipe.lease("redisson-sentinel")),
        /** Redisson's RFencedLock on the same deployment: its token is an INCR on the primary, replicated like the rest. */
        REDISSON_FENCED_SENTINEL("redisson-fenced-sentinel", Backend.REDIS, false,
                Recipe.lease("redisson-fenced-sentinel")),
        /** A session-level pg_advisory_lock on a dedicated PostgreSQL connection (it nests, as advisory locks do). */
        PG_ADVISORY("pg-advisory", Backend.POSTGRES, false, new Recipe("pg-advisory",
                Promises.exclusive().withReentry().withOwnerOnlyRelease())),
        /**
         * A transaction-level pg_advisory_xact_lock whose holder writes the protected set in the same transaction,
         * committed by the release: exclusive, owner-only release, not reentrant (one hold per transaction).
         */
        PG_ADVISORY_XACT("pg-advisory-xact", Backend.POSTGRES, false, new Recipe("pg-advisory-xact",
                Promises.exclusive().withOwnerOnlyRelease())),
        /** A lease row in a PostgreSQL table, renewed while held, its version the fencing token. */
        PG_LEASE("pg-lease", Backend.POSTGRES, false, Recipe.lease("pg-lease")),
        /** etcd's Lock API on a lease the client keeps alive; the protected set in the run (Jepsen's lock-set). */
        ETCD_LOCK("etcd-lock", Backend.ETCD, false, Recipe.lease("etcd-lock")),
        /**
         * The same lock with the protected set in etcd, written by a transaction conditioned on the lock key's create
         * revision: the server refuses a holder whose key is gone (Jepsen's lock-etcd-set).
         */
        ETCD_LOCK_FENCED("etcd-lock-fenced", Backend.ETCD, false, Recipe.lease("etcd-lock-fenced")),
        /**
         * ShedLock's JdbcTemplate provider on PostgreSQL: a row whose {@code lock_until} is compared with the
         * application's clock (the provider's default) or, with the setting {@code using_db_time}, the database's. Its
         * documentation promises one holder while no job outlives {@code lockAtMostFor}, the lease.
         */
        SHEDLOCK_JDBC("shedlock-jdbc", Backend.POSTGRES, new Recipe("shedlock-jdbc",
                Promises.exclusive().withLease()), Library.SHEDLOCK_JDBC),
        /**
         * ShedLock's Redis provider on one instance: {@code SET key value NX PX lockAtMostFor}, the ttl counted on the
         * application's clock; the unlock is {@code DEL key}, whoever holds it then.
         */
        SHEDLOCK_REDIS("shedlock-redis", Backend.REDIS, new Recipe("shedlock-redis",
                Promises.exclusive().withLease()), Library.SHEDLOCK_REDIS),
        /**
         * ShedLock's ZooKeeper provider: a persistent node whose data is {@code lock_until}, on the application's
         * clock; a taker's write is conditioned on the version it read, the unlock's is not.
         */
        SHEDLOCK_ZOOKEEPER("shedlock-zookeeper", Backend.ZOOKEEPER, new Recipe("shedlock-zookeeper",
                Promises.exclusive().withLease()), Library.SHEDLOCK_ZOOKEEPER),
        /**
         * Spring Integration's JdbcLockRegistry on PostgreSQL: a row per lock whose age, on the application's clock,
         * is its lease (the time to live); released by its owner only (the DELETE names the client id).
         */
        SPRING_JDBC("spring-jdbc", Backend.POSTGRES, new Recipe("spring-jdbc",
                Promises.exclusive().withOwnerOnlyRelease().withLease()), Library.SPRING_JDBC),
        /**
         * Spring Integration's RedisLockRegistry on one instance: a key per lock holding the registry's client id,
         * expired by the instance after {@code expireAfter}; released by its owner only (a script compares the id).
         */
        SPRING_REDIS("spring-redis", Backend.REDIS, new Recipe("spring-redis",
                Promises.exclusive().withOwnerOnlyRelease().withLease()), Library.SPRING_REDIS),
        /**
         * Spring Integration's ZookeeperLockRegistry: Curator's InterProcessMutex, an ephemeral node held for as long
         * as the holder's session lives; the registry does not listen to the connection, so a holder is never told.
         */
        SPRING_ZOOKEEPER("spring-zookeeper", Backend.ZOOKEEPER, new Recipe("spring-zookeeper",
                Promises.exclusive().withOwnerOnlyRelease()), Library.SPRING_ZOOKEEPER),
        /**
         * Hazelcast's FencedLock on members whose CP Subsystem runs Raft over all of them: a lock owned by a client's
         * CP session (which ends one session TTL after the client's last heartbeat) and thread, reentrant, with a
         * fence that grows with every new owner.
         */
        HAZELCAST_FENCED("hazelcast-fenced", Backend.HAZELCAST, new Recipe("hazelcast-fenced",
                Promises.exclusive().withReentry().withOwnerOnlyRelease()), Library.HAZELCAST),
        /**
         * The same lock with no CP members: Hazelcast's "unsafe mode", which keeps the lock on a partition with one
         * backup, without consensus.
         */
        HAZELCAST_FENCED_UNSAFE("hazelcast-fenced-unsafe", Backend.HAZELCAST, new Recipe("hazelcast-fenced-unsafe",
                Promises.exclusive().withReentry().withOwnerOnlyRelease()), Library.HAZELCAST),
        /**
         * A lock from the user's jar ({@code lock_class}, {@code lock_jar}): its factory says what it promises and
         * what it runs on (see {@link #backend()} and {@link #promises()}).
         */
        USER("user", Backend.ZOOKEEPER, false, Recipe.MUTEX);

        private final String wireName;
        private final Backend backend;
        private final boolean curator;
        private final Recipe promises;
        private final Library library;

        Kind(String wireName, Backend backend, boolean curator, Recipe promises) {
            this(wireName, backend, curator, promises, null);
        }

        Kind(String wireName, Backend backend, Recipe promises, Library library) {
            this(wireName, backend, false, promises, library);
        }

        Kind(String wireName, Backend backend, boolean curator, Recipe promises, Library library) {
            this.wireName = wireName;
            this.backend = backend;
            this.curator = curator;
            this.promises = promises;
            this.library = library;
        }

        /** The library a built-in recipe wraps and runs in client agents, or null for lockchaos' own clients. */
        public Library library() {
            return library;
        }

        /** The name as typed ({@code semaphore:N} for the semaphore, whose N is the permits). */
        public String wireName() {
            return wireName;
        }

        public Backend backend() {
            return backend;
        }
    }

    /** Every recipe name as typed, in order: what help text and error messages list (a user's lock is named by class). */
    public static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(Kind.values()).filter(k -> k != Kind.USER).map(Kind::wireName).iterator();
        }

        /** The recipes that wrap a lock library, "a, b or c": what a key or option that needs one says. */
        public static String libraries() {
            List<String> all = java.util.Arrays.stream(Kind.values()).filter(k -> k.library != null)
                    .map(Kind::wireName).toList();
            return all.size() == 1 ? all.get(0) : String.join(", ", all.subList(0, all.size() - 1)) + " or "
                    + all.get(all.size() - 1);
        }

        /** "a, b, ... or z". */
        public static String list() {
            List<String> all = new java.util.ArrayList<>();
            new Names().forEach(all::add);
            return String.join(", ", all.subList(0, all.size() - 1)) + " or " + all.get(all.size() - 1);
        }
    }

    public LockRecipe {
        if (kind == Kind.USER ? user == null : user != null && kind.library == null) {
            throw new IllegalArgumentException(kind == Kind.USER ? "recipe: user needs lock_class" : "recipe: "
                    + kind.wireName + " and lock_class both name the lock under test: give one");
        }
        if (kind == Kind.SEMAPHORE ? permits < 1 : permits != 1) {
            throw new IllegalArgumentException("recipe: " + kind.wireName + " takes " + (kind == Kind.SEMAPHORE
                    ? "at least 1 permit" : "no permits") + ", got " + permits);
        }
    }

    public LockRecipe(Kind kind, int permits) {
        this(kind, permits, null);
    }

    public static LockRecipe of(Kind kind) {
        return new LockRecipe(kind, 1);
    }

    public static LockRecipe semaphore(int permits) {
        return new LockRecipe(Kind.SEMAPHORE, permits);
    }

    /** The user's lock. */
    public static LockRecipe user(UserLock lock) {
        return new LockRecipe(Kind.USER, 1, lock);
    }

    /**
     * A library's recipe, its factory loaded in client agents from {@code classpath}: the library's resolved jars, or
     * none until the run resolves the release it names.
     */
    public static LockRecipe library(Kind kind, List<String> classpath) {
        return new LockRecipe(kind, 1, new UserLock(classpath, kind.library.factory(), kind.promises.promises(),
                kind.backend));
    }

    /**
     * Parses a workload file's {@code recipe} value.
     *
     * @throws IllegalArgumentException with a one-line message naming the accepted values
     */
    public static LockRecipe parse(String s) {
        for (Kind k : Kind.values()) {
            if (k != Kind.SEMAPHORE && k != Kind.USER && k.wireName.equals(s)) {
                return of(k);
            }
        }
        if (s.equals(Kind.USER.wireName)) {
            throw new IllegalArgumentException("recipe 'user' is a lock from your jar: name its factory with lock_class"
                    + " (--lock-class) and its classpath with lock_jar (--lock-jar)");
        }
        if (s.matches("semaphore:[1-9][0-9]{0,8}")) {
            return semaphore(Integer.parseInt(s.substring("semaphore:".length())));
        }
        throw new IllegalArgumentException("unknown recipe '" + s + "' (expected " + Names.list()
                + ", with N >= 1)");
    }

    /** The name workload files, test.json and the reports use. */
    public String wireName() {
        return kind == Kind.SEMAPHORE ? "semaphore:" + permits : kind.wireName;
    }

    @Override
    public String toString() {
        return wireName();
    }

    /** The user's lock from a jar ({@code lock_class}), or null: a library's recipe is lockchaos' own. */
    public UserLock fromJar() {
        return kind == Kind.USER ? user : null;
    }

    /** The servers the lock runs on: a user's lock says so itself. */
    public Backend backend() {
        return user == null ? kind.backend : user.backend();
    }

    /** Whether clients are Curator's (its recipes) rather than a raw handle's or another service's client. */
    public boolean curator() {
        return user == null && kind.curator;
    }

    /** Whether clients use raw ZooKeeper sessions (the tutorial's locks, a user's lock) rather than Curator's. */
    public boolean naive() {
        return backend() == Backend.ZOOKEEPER && !curator();
    }

    /** Whether a Redis recipe locks on several independent instances (the RedLocks) rather than one. */
    public boolean multiInstance() {
        return kind == Kind.REDLOCK || kind == Kind.REDLOCK_TUTORIAL;
    }

    /** Whether a Redis recipe locks on a primary with replicas under Redis Sentinel. */
    public boolean sentinel() {
        return kind == Kind.REDISSON_SENTINEL || kind == Kind.REDISSON_FENCED_SENTINEL;
    }

    /** Whether clients lock on PostgreSQL servers. */
    public boolean postgres() {
        return backend() == Backend.POSTGRES;
    }

    /** Whether the lock runs on ZooKeeper (Curator's recipes, the tutorial's, a user's on ZooKeeper). */
    public boolean zooKeeper() {
        return backend() == Backend.ZOOKEEPER;
    }

    /** How progress and messages name the servers this lock runs on, in the plural. */
    public String servers() {
        return LockServices.of(this).servers(this);
    }

    /** Whether clients lock on an etcd cluster. */
    public boolean etcd() {
        return backend() == Backend.ETCD;
    }

    /** Whether clients lock on Redis instances rather than ZooKeeper. */
    public boolean redis() {
        return backend() == Backend.REDIS;
    }

    /** Whether one multi-lock spans every key (its workers all take all keys at once). */
    public boolean spansKeys() {
        return kind == Kind.MULTI;
    }

    /** Whether acquires carry a read or write mode. */
    public boolean readWrite() {
        return promises().readWrite();
    }

    /**
     * Whether writers (every holder of an exclusive lock) run the critical section on the protected resources: a
     * semaphore admits several holders, so they would race by design and a lost update would prove nothing (a
     * one-lease semaphore included: runs have always treated every semaphore alike).
     */
    public boolean protectsResources() {
        return !promises().counted();
    }

    /**
     * What the lock promises, which decides what the checkers accept. The tutorial's locks promise what a mutex (or a
     * read/write lock) promises, with owner-only release and queue order: they are written as if they kept them.
     */
    public Recipe promises() {
        if (user != null && kind == Kind.USER) {
            return new Recipe(user.className(), user.promises());
        }
        return kind == Kind.SEMAPHORE ? Recipe.semaphore(permits) : kind.promises;
    }

    /** The linearizability model of what the lock promises. */
    public Model<?> model() {
        return Models.forRecipe(promises());
    }
}
