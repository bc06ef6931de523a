package io.lockchaos.core;

import io.lockchaos.cluster.ClusterKind;
import org.apache.zookeeper.Version;

/**
 * The ensemble a test runs against.
 *
 * @param kind where the servers run
 * @param nodes servers: ZooKeeper's and Redis' 1, 3 or 5 (said by {@link TestSpecs#validate}); PostgreSQL's 1, or a
 *     primary and 1 to 4 replicas
 * @param tickMillis the servers' tickTime, which bounds the session timeouts they grant (2 to 20 ticks)
 * @param containerCheckMillis how often the servers reap empty container nodes (a lock's parent, once its last lock
 *     node is gone), {@code container_check_ms}; -1 keeps ZooKeeper's minute
 * @param zooKeeper the ZooKeeper release the servers run: {@value #LINKED} (the one lockchaos is built with) or a
 *     version resolved from Maven Central ({@code zookeeper})
 */
public record ClusterSpec(ClusterKind kind, int nodes, int tickMillis, long containerCheckMillis, String zooKeeper) {
    /** The servers run the ZooKeeper lockchaos is built with. */
    public static final String LINKED = "linked";
    /** The version of {@link #LINKED}. */
    public static final String LINKED_VERSION = Version.getVersion();

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
        this(kind, nodes, tickMillis, -1, LINKED);
    }

    public ClusterSpec(ClusterKind kind, int nodes, int tickMillis, long containerCheckMillis) {
        this(kind, nodes, tickMillis, containerCheckMillis, LINKED);
    }

    /** Whether the servers run the ZooKeeper lockchaos is built with. */
    public boolean linkedZooKeeper() {
        return zooKeeper == null || zooKeeper.equals(LINKED) || zooKeeper.equals(LINKED_VERSION);
    }

    /** The ZooKeeper version the servers run. */
    public String zooKeeperVersion() {
        return linkedZooKeeper() ? LINKED_VERSION : zooKeeper;
    }

    public boolean containers() {
        return kind == ClusterKind.CONTAINER;
    }

    /** Whether the servers run on hosts reached over SSH, one per host. */
    public boolean ssh() {
        return kind == ClusterKind.SSH;
    }

    /** Whether each server has a network namespace of its own, cut apart from the others with iptables. */
    public boolean namespaces() {
        return kind == ClusterKind.NETNS;
    }
}
