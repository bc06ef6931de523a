package io.lockchaos.cluster;

import java.util.Locale;

/** Where a run's servers run (each lock service says which of these it can). */
public enum ClusterKind {
    /** Child JVMs of the runner on 127.0.0.1: needs nothing but Java. */
    LOCAL,
    /** Docker containers (Testcontainers), with a Toxiproxy container for network faults. */
    CONTAINER,
    /**
     * Child JVMs of the runner, each in its own network namespace with its own address; servers are cut apart with
     * iptables, clients through their proxies. Needs root.
     */
    NETNS,
    /**
     * One ZooKeeper server per host, on hosts reached over SSH ({@code hosts}), started from classes the runner
     * uploads; servers are cut apart with iptables on the hosts, clients through their proxies here.
     */
    SSH;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code local}, {@code container}, {@code netns} or {@code ssh}; null for anything else. */
    public static ClusterKind parse(String s) {
        for (ClusterKind k : values()) {
            if (k.wireName().equals(s)) {
                return k;
            }
        }
        return null;
    }
}
