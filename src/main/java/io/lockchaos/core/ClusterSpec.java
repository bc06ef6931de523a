package io.lockchaos.core;

/**
 * The ensemble a test runs against.
 *
 * @param kind where the servers run
 * @param nodes ZooKeeper servers: 1, 3 or 5
 * @param tickMillis the servers' tickTime, which bounds the session timeouts they grant (2 to 20 ticks)
 */
public record ClusterSpec(ClusterKind kind, int nodes, int tickMillis) {
    public boolean containers() {
        return kind == ClusterKind.CONTAINER;
    }

    /** Whether each server has a network namespace of its own, cut apart from the others with iptables. */
    public boolean namespaces() {
        return kind == ClusterKind.NETNS;
    }
}
