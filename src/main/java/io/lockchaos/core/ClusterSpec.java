package io.lockchaos.core;

/**
 * The ensemble a test runs against.
 *
 * @param kind where the servers run
 * @param nodes servers: ZooKeeper's and Redis' 1, 3 or 5 (said by {@link TestSpecs#validate}); PostgreSQL's 1, or a
 *     primary and 1 to 4 replicas
 * @param tickMillis the servers' tickTime, which bounds the session timeouts they grant (2 to 20 ticks)
 * @param containerCheckMillis how often the servers reap empty container nodes (a lock's parent, once its last lock
 *     node is gone), {@code container_check_ms}; -1 keeps ZooKeeper's minute
 */
public record ClusterSpec(ClusterKind kind, int nodes, int tickMillis, long containerCheckMillis) {
    /** The ranges of these keys, each refusal naming its key. */
    public ClusterSpec {
        if (nodes < 1 || nodes > 5) {
            throw new IllegalArgumentException("nodes: expected 1, 3 or 5 (PostgreSQL: 1 to 5), got " + nodes);
        }
        if (tickMillis < 10) {
            throw new IllegalArgumentException("tick_ms: must be at least 10, got " + tickMillis);
        }
        if (containerCheckMillis != -1 && (containerCheckMillis < 100 || containerCheckMillis > 3_600_000)) {
            throw new IllegalArgumentException("container_check_ms: expected -1 (ZooKeeper's minute) or 100 to"
                    + " 3600000, got " + containerCheckMillis);
        }
    }

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
