package io.lockchaos.fault;

import java.util.Map;
import java.util.TreeMap;

/**
 * One fault as data.
 *
 * @param kind what it does
 * @param target whom: holder, waiter, random, process:N; leader, follower, minority, majority, all, node:N; clients,
 *     servers; data, data:N (the protected data's servers); or empty for partitions of the whole ensemble
 * @param options numeric options by name (latency_ms, jitter_ms, rate_kbs, timeout_ms, servers, one_way)
 */
public record Fault(FaultKind kind, String target, Map<String, Long> options) {
    public Fault {
        options = Map.copyOf(options);
    }

    /** An option's value, or {@code dflt} when it is not set. */
    public long option(String name, long dflt) {
        return options.getOrDefault(name, dflt);
    }

    private boolean traffic() {
        return kind.targets == FaultKind.Targets.TRAFFIC;
    }

    /** Whether the fault moves the wall clocks of client agents rather than of servers. */
    public boolean movesClientClocks() {
        return kind.movesClocks() && (target.equals("clients") || movesOneClientsClock());
    }

    /**
     * Whether the fault moves one client's clock alone (its own agent's): the holder, a waiter, the next waiter or
     * process N, as a client fault names them.
     */
    public boolean movesOneClientsClock() {
        return kind.movesClocks() && (target.equals("holder") || target.endsWith("waiter")
                || target.startsWith("process:"));
    }

    /** Whether the fault moves the wall clocks of servers. */
    public boolean movesServerClocks() {
        return kind.movesClocks() && !movesClientClocks();
    }

    /** Whether the fault needs a proxy in front of every server for each client. */
    public boolean needsClientProxies() {
        return kind == FaultKind.ISOLATE_CLIENT || kind == FaultKind.ISOLATE_SERVER && !onDataServers()
                || kind == FaultKind.PAUSE_CLIENT
                || kind == FaultKind.LOSE_COMMIT // a lock that keeps its data commits on the lock's path
                || traffic() && !target.equals("servers") && !onData();
    }

    /**
     * Whether the fault acts on the protected data in a database, not on the lock: on the clients' connections to it,
     * or on its servers.
     */
    public boolean onData() {
        return kind == FaultKind.LOSE_COMMIT || target.equals("data") || onDataServers();
    }

    /**
     * Whether the fault kills, pauses, isolates or fails over the protected data's servers ({@code data}, {@code
     * data:N}).
     */
    public boolean onDataServers() {
        return kind.takesDataServers() && (target.equals("data") || target.startsWith("data:"));
    }

    /** Whether the fault needs a proxy on every directed pair of servers. */
    public boolean needsPeerProxies() {
        return kind == FaultKind.ISOLATE_SERVER && !onDataServers() || kind.partitionsServers()
                || traffic() && !target.equals("clients") && !onData();
    }

    /** The fault as the timeline writes it, e.g. {@code latency clients latency_ms=200}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(kind.wireName());
        if (!target.isEmpty()) {
            s.append(' ').append(target);
        }
        new TreeMap<>(options).forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
        return s.toString();
    }
}
