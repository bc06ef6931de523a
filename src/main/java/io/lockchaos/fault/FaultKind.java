package io.lockchaos.fault;

import io.lockchaos.history.Fn;
import java.util.Locale;
import java.util.Set;

/** What a fault does. Each kind says which targets it takes and how it is recorded in the history. */
public enum FaultKind {
    /** Blackholes one client's connections to the servers (all, or {@code servers=N} of them). */
    ISOLATE_CLIENT(Targets.CLIENT, Fn.PARTITION, Fn.STOP),
    /**
     * Cuts one server off from its peers and its clients ({@code one_way=1}: only what it sends is lost; {@code
     * peers_only=1}: from its peers only).
     */
    ISOLATE_SERVER(Targets.SERVER, Fn.PARTITION, Fn.STOP),
    /** Splits the servers into a majority and a minority that cannot reach each other. */
    PARTITION_HALVES(Targets.NONE, Fn.PARTITION, Fn.STOP),
    /** Each server reaches only its neighbours in a random ring: every server sees a majority, no two the same. */
    PARTITION_RING(Targets.NONE, Fn.PARTITION, Fn.STOP),
    /** Two halves that reach each other only through one bridge server. */
    PARTITION_BRIDGE(Targets.NONE, Fn.PARTITION, Fn.STOP),
    /** Adds {@code latency_ms} (and {@code jitter_ms}) to client or server traffic. */
    LATENCY(Targets.TRAFFIC, Fn.START, Fn.STOP),
    /** Limits client or server traffic to {@code rate_kbs} KB/s. */
    BANDWIDTH(Targets.TRAFFIC, Fn.START, Fn.STOP),
    /** Resets connections by TCP RST {@code timeout_ms} after they carry data: connections flap. */
    RESET(Targets.TRAFFIC, Fn.START, Fn.STOP),
    /** Drops {@code percent}% (default 20) of the packets between servers at random ({@code --cluster netns} only). */
    PACKET_LOSS(Targets.TRAFFIC, Fn.START, Fn.STOP),
    /** Server-side session expiry: the server ends the client's session and deletes its ephemeral nodes at once. */
    EXPIRE(Targets.CLIENT, Fn.EXPIRE, null),
    /**
     * Client-side session expiry (ZooKeeper's injectSessionExpiration): the client believes its session expired and
     * starts a new one, while the server keeps the old session and its nodes until the timeout (CURATOR-604).
     */
    EXPIRE_CLIENT_SIDE(Targets.CLIENT, Fn.EXPIRE, null),
    /** kill -9 of servers, started again when the fault ends. */
    KILL(Targets.SERVERS, Fn.KILL, Fn.RESTART),
    /** SIGSTOP of servers, SIGCONT when the fault ends. */
    PAUSE(Targets.SERVERS, Fn.PAUSE, Fn.RESUME),
    /**
     * A client paused like a GC pause: the next holder to reach its danger point (after its last check that it holds
     * the lock, before its write) stops, with its connections frozen, for the fault's duration; {@code waiter} stops
     * a client waiting for the lock (its own client agent, SIGSTOP), its connections kept as a real pause keeps them.
     */
    PAUSE_CLIENT(Targets.HOLDER, Fn.PAUSE, Fn.RESUME),
    /**
     * A waiting client's thread interrupted in its acquire ({@code Thread.interrupt()}), as an executor's shutdown or
     * a cancelled task interrupts it: whatever the call was doing (a request on the wire, a wait for a wake-up), the
     * lock must not end up held for a caller it told otherwise. {@code release=1}: the client then releases once, as
     * a {@code finally} block would. Clients in the runner's JVM only (a thread of a client agent is out of reach).
     */
    INTERRUPT(Targets.WAITING, Fn.INTERRUPT, null),
    /**
     * A lost answer: the next holder to commit its critical section's transaction to the protected data in a database
     * ({@code protected_data}) sends its COMMIT, and the answer is dropped (its connection's way back is cut just
     * before, until the fault ends): the commit may have taken, and the holder cannot know.
     */
    LOSE_COMMIT(Targets.COMMIT, Fn.START, Fn.STOP),
    /**
     * Moves servers' wall clocks {@code by_ms} ahead (negative: behind) for the fault's duration, then back: on Redis
     * a key then expires early on those instances only (servers this machine starts, under the clock-shift library).
     */
    CLOCK_JUMP(Targets.CLOCKS, Fn.START, Fn.STOP),
    /**
     * Jepsen's strobe: servers' wall clocks flip between {@code by_ms} ahead and the machine's time every {@code
     * period_ms} (default 100) for the fault's duration, then stay at the machine's time.
     */
    CLOCK_STROBE(Targets.CLOCKS, Fn.START, Fn.STOP),
    /**
     * A failover to the target replica (PostgreSQL with {@code pg_replication}): every other server is fenced (kill
     * -9, and it stays down), then the replica is promoted; what it had not replayed of the old primary's log is lost.
     */
    FAILOVER(Targets.SERVER, Fn.START, null),
    /**
     * Jepsen's lost writes: servers are killed, the newest transaction log of each loses its last {@code txns}
     * (default 10) transactions, and each starts again when the fault ends (ZooKeeper servers this machine runs).
     */
    TRUNCATE_LOG(Targets.SERVERS, Fn.KILL, Fn.RESTART),
    /** Servers are killed, one byte of the last transaction in each one's newest log is flipped, each starts again. */
    CORRUPT_LOG(Targets.SERVERS, Fn.KILL, Fn.RESTART),
    /**
     * Servers' data folders are copied as they run; when the fault ends each is killed and started on its copy, the
     * transactions of the fault's duration gone from it.
     */
    ROLLBACK(Targets.SERVERS, Fn.START, Fn.RESTART),
    /**
     * Dynamic reconfiguration: the server leaves the voting members (the leader steps down), and is added back when the
     * fault ends; each op records the members and the configuration version (ZooKeeper servers this machine runs).
     */
    REMOVE_MEMBER(Targets.SERVER, Fn.START, Fn.STOP),
    /**
     * Dynamic reconfiguration grows the ensemble: {@code count} (1 or 2) servers it never had start with empty data,
     * join the voting members, and leave them and stop when the fault ends (3 to 5 and back).
     */
    ADD_MEMBER(Targets.NONE, Fn.START, Fn.STOP),
    /**
     * A server the ensemble never had joins the voting members and the target leaves them (replacing the leader, as
     * an operator retiring its machine would); when the fault ends the target is added back and the newcomer leaves.
     */
    REPLACE_MEMBER(Targets.SERVER, Fn.START, Fn.STOP);

    /** Which targets a kind takes. */
    enum Targets {
        NONE(Set.of("")),
        /** {@code releaser}: the next worker to start a release (isolate only; it is cut as it releases). */
        CLIENT(Set.of("holder", "waiter", "next-waiter", "random", "releaser")),
        /**
         * A pause waits at a holder's danger point: only holders get there; {@code releaser} waits inside the next
         * release instead, at the point the recipe names; {@code waiter} and {@code next-waiter} stop a waiting
         * client's whole agent wherever it is.
         */
        HOLDER(Set.of("holder", "random", "releaser", "waiter", "next-waiter")),
        /** A client in its acquire: a random one, the one waiting longest, or {@code process:N} once it waits. */
        WAITING(Set.of("waiter", "next-waiter")),
        SERVER(Set.of("leader", "follower", "random")),
        SERVERS(Set.of("leader", "follower", "random", "minority", "majority", "all")),
        /** {@code data}: the clients' connections to the protected data in a database ({@code protected_data}). */
        TRAFFIC(Set.of("clients", "servers", "all", "data")),
        /** The next holder to commit (or {@code process:N}'s next commit). */
        COMMIT(Set.of("holder")),
        /**
         * Servers as SERVERS names them, or client agents: {@code clients} (every one), or one client's own agent as
         * a client fault names it ({@code holder}, {@code waiter}, {@code next-waiter}, {@code process:N}): a lease
         * judged on a client's clock is taken early by a waiter whose clock runs ahead.
         */
        CLOCKS(Set.of("leader", "follower", "random", "minority", "majority", "all", "clients", "holder", "waiter",
                "next-waiter"));

        final Set<String> names;

        Targets(Set<String> names) {
            this.names = names;
        }

        /** Whether {@code t} is a target of this kind: a name, or {@code process:N} / {@code node:N}. */
        boolean accepts(String t) {
            if (names.contains(t)) {
                return true;
            }
            if (this == CLIENT || this == HOLDER || this == CLOCKS || this == COMMIT || this == WAITING) {
                if (t.matches("process:[0-9]+")) {
                    return true;
                }
            }
            return (this == SERVER || this == SERVERS || this == CLOCKS) && t.matches("node:[1-9]");
        }

        String describe() {
            return switch (this) {
                case NONE -> "no target";
                case CLIENT -> "holder, waiter, next-waiter, random, releaser (isolate only) or process:N";
                case HOLDER -> "holder, releaser, waiter, next-waiter, random or process:N";
                case SERVER -> "leader, follower, random or node:N";
                case SERVERS -> "leader, follower, random, minority, majority, all or node:N";
                case TRAFFIC -> "clients, servers, all or data";
                case COMMIT -> "holder or process:N";
                case WAITING -> "waiter, next-waiter or process:N";
                case CLOCKS -> "leader, follower, random, minority, majority, all or node:N (servers), clients,"
                        + " holder, waiter, next-waiter or process:N (client agents)";
            };
        }
    }

    final Targets targets;
    private final Fn startFn;
    private final Fn stopFn;

    FaultKind(Targets targets, Fn startFn, Fn stopFn) {
        this.targets = targets;
        this.startFn = startFn;
        this.stopFn = stopFn;
    }

    /** The history function of the op that starts the fault. */
    public Fn startFn() {
        return startFn;
    }

    /** The history function of the op that ends it, or null for a fault that happens at an instant. */
    public Fn stopFn() {
        return stopFn;
    }

    /** Whether the fault partitions the ensemble (and so needs at least 3 servers). */
    public boolean partitionsServers() {
        return name().startsWith("PARTITION_");
    }

    /** Whether the fault moves servers' wall clocks (so they must run under the clock-shift library). */
    public boolean movesClocks() {
        return this == CLOCK_JUMP || this == CLOCK_STROBE;
    }

    /** The target names this kind takes (besides {@code process:N} or {@code node:N} where it takes those). */
    public Set<String> targetNames() {
        return targets.names;
    }

    /**
     * Whether {@code t} is a target of this kind: one its targets name, or, for a kill, a pause, an isolation or a
     * failover, the protected data's servers in a database ({@code data}: all of them, kill and pause only; {@code
     * data:N}: one).
     */
    public boolean accepts(String t) {
        return targets.accepts(t) || takesDataServers() && (t.matches("data:[1-9]") || t.equals("data")
                && targets == Targets.SERVERS);
    }

    /** The targets this kind takes, as an error message lists them. */
    public String describeTargets() {
        return targets.describe() + (!takesDataServers() ? "" : targets == Targets.SERVERS ? " (or data, data:N: the"
                + " protected data's servers)" : " (or data:N, a server of the protected data)");
    }

    /**
     * Whether the kind acts on the protected data's servers as well as on the lock's: kill, pause, a failover, and
     * isolating one (from its clients and its replica or primary).
     */
    public boolean takesDataServers() {
        return this == KILL || this == PAUSE || this == FAILOVER || this == ISOLATE_SERVER;
    }

    /** Whether the kind takes {@code node:N}: a server named by its number. */
    public boolean takesNodes() {
        return targets.accepts("node:2");
    }

    /** Whether the fault changes servers' data on disk (so it needs ZooKeeper servers this machine runs). */
    public boolean damagesDisk() {
        return this == TRUNCATE_LOG || this == CORRUPT_LOG || this == ROLLBACK;
    }

    /** Whether the fault changes the ensemble's membership (so its servers must take reconfiguration). */
    public boolean changesMembership() {
        return this == REMOVE_MEMBER || this == ADD_MEMBER || this == REPLACE_MEMBER;
    }

    /** How many servers the ensemble never had this fault starts: {@code count} of an add, one for a replacement. */
    public int newServers(Fault f) {
        return this == ADD_MEMBER ? (int) f.option("count", 1) : this == REPLACE_MEMBER ? 1 : 0;
    }

    /** Whether the fault happens at an instant (it has no duration and no stop). */
    public boolean instantaneous() {
        return stopFn == null;
    }

    /** The target used when a timeline names none. */
    public String defaultTarget() {
        if (this == PACKET_LOSS) {
            return "servers"; // the only target it takes: packets are dropped between servers
        }
        return switch (targets) {
            case NONE -> "";
            case CLIENT, HOLDER, COMMIT -> "holder";
            case SERVER, SERVERS, CLOCKS -> "random";
            case TRAFFIC -> "clients";
            case WAITING -> "waiter";
        };
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind with this wire name, or null. */
    public static FaultKind parse(String s) {
        for (FaultKind k : values()) {
            if (k.wireName().equals(s)) {
                return k;
            }
        }
        return null;
    }
}
