package io.lockchaos.core;

/**
 * The ensemble a test runs against.
 *
 * @param kind where the servers run
 * @param nodes ZooKeeper servers: 1, 3 or 5
 * @param tickMillis the servers' tickTime, which bounds the session timeouts they grant (2 to 20 ticks)
 * @param containerCheckMillis how often the servers reap empty container nodes (a lock's parent, once its last lock
 *     node is gone), {@code container_check_ms}; -1 keeps ZooKeeper's minute
 */
public record ClusterSpec(ClusterKind kind, int nodes, int tickMillis, long containerCheckMillis) {
    public ClusterSpec(ClusterKind kind, int nodes, int tickMillis) {
        this(kind, nodes, tickMillis, -1);
    }

    public boolean containers() {
        return kind == ClusterKind.CONTAINER;
    }

    /** Whether each server has a network namespace of its own, cut apart from the others with iptables. */
    public boolean namespaces() {
        return kind == ClusterKind.NETNS;
    }
}
