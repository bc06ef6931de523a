package io.lockchaos.client;

import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.fault.Schedule;
import java.util.function.Function;

/**
 * The parts of a run's spec a lock service judges ({@link LockService#refusal}): the recipe, where and how many
 * servers run, how deep clients nest, the fault schedule, and every workload setting by key (a service reads its own
 * keys, such as {@code lease_ms}). A refusal is one line, {@code key: reason}; the caller names the file. The helpers
 * are the rules several services share.
 *
 * @param nemesis the schedule as written (a refusal may quote an entry)
 * @param settings a workload key's value as the run's spec holds it
 */
public record ServiceSpec(LockRecipe recipe, ClusterKind cluster, int nodes, int reentryDepth, Schedule schedule,
                          String nemesis, Function<String, Object> settings) {
    /** The value of the workload key {@code key}. */
    public Object setting(String key) {
        return settings.apply(key);
    }

    /** A whole-number setting. */
    public long number(String key) {
        return ((Number) setting(key)).longValue();
    }

    /** Whether the servers run in network namespaces of their own on this machine ({@code cluster netns}). */
    public boolean namespaces() {
        return cluster == ClusterKind.NETNS;
    }

    /**
     * The first fault of the schedule, of those not on the protected data's servers, that {@code why} has a reason
     * against, as a refusal naming it; else null.
     */
    public String firstRefusedFault(Function<Fault, String> why) {
        for (FaultEvent e : schedule.events()) {
            Fault f = e.fault();
            if (f.onDataServers()) {
                continue; // the protected data's servers are another service's, judged with the data
            }
            String reason = why.apply(f);
            if (reason != null) {
                return "nemesis: " + f.kind().wireName() + (f.target().isEmpty() ? "" : " " + f.target()) + ": "
                        + reason;
            }
        }
        return null;
    }

    /** What is wrong with a clock fault's options, or null: a jump of at most a day, a strobe of 10 ms to a minute. */
    public static String clockProblem(Fault f) {
        if (Math.abs(f.option("by_ms", 0)) > 86_400_000L) {
            return "by_ms: expected -86400000 to 86400000 (a day), got " + f.option("by_ms", 0);
        }
        long period = f.option("period_ms", 100);
        if (f.kind() == FaultKind.CLOCK_STROBE && (period < 10 || period > 60_000)) {
            return "period_ms: expected 10 to 60000, got " + period;
        }
        return null;
    }

    /** The lease of a leased lock, or null when it is in range. */
    public String leaseRangeProblem() {
        long lease = number("lease_ms");
        return lease < 10 || lease > 600_000 ? "lease_ms: expected 10 to 600000, got " + lease : null;
    }

    /** The lease and the per-request timeout of a leased lock (Redis, etcd), or null when both are in range. */
    public String leaseProblem() {
        if (leaseRangeProblem() != null) {
            return leaseRangeProblem();
        }
        long timeout = number("redis_timeout_ms");
        if (timeout < 1 || timeout > 60_000) {
            return "redis_timeout_ms: expected 1 to 60000, got " + timeout;
        }
        return null;
    }

    /** A lock that is not reentrant takes reentry_depth 1: the refusal otherwise, or null. */
    public String notReentrantProblem() {
        return reentryDepth != 1 ? "reentry_depth: " + recipe.wireName() + " is not reentrant: 1, got " + reentryDepth
                : null;
    }

    /**
     * What a service whose servers run here as child processes, each known to the others by one address, refuses of
     * the schedule: a session expiry ({@code expire}, why not), a clock fault on servers ({@code serverClock}), a clock
     * fault out of range, and, outside network namespaces, a cut between servers or packet loss ({@code peers}: there
     * is no per-pair proxy to put between them). Null when it refuses nothing.
     */
    public String childServersFaultProblem(String expire, String serverClock, String peers) {
        boolean netns = namespaces();
        return firstRefusedFault(f -> {
            FaultKind k = f.kind();
            if (k == FaultKind.EXPIRE || k == FaultKind.EXPIRE_CLIENT_SIDE) {
                return expire;
            } else if (f.movesServerClocks()) {
                return serverClock;
            } else if (k.movesClocks()) {
                return clockProblem(f);
            } else if (!netns && (f.needsPeerProxies() || k == FaultKind.PACKET_LOSS)) {
                return peers;
            }
            return null;
        });
    }

    /**
     * The first entry of the schedule that aims at a {@code leader} or {@code follower}, as written, or null: servers
     * that do not say who leads refuse it.
     */
    public String roleTargetEntry() {
        for (String entry : nemesis.split("[;\n]")) {
            String e = entry.strip();
            if (!e.startsWith("mix") && java.util.Arrays.stream(e.split("\\s+"))
                    .anyMatch(w -> w.equals("leader") || w.equals("follower"))) {
                return e;
            }
        }
        return null;
    }

    /** The first non-null of {@code refusals}. */
    public static String first(String... refusals) {
        for (String r : refusals) {
            if (r != null) {
                return r;
            }
        }
        return null;
    }
}
