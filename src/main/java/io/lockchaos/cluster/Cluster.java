package io.lockchaos.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** A lock service's servers, which clients connect to: a ZooKeeper ensemble, Redis instances, PostgreSQL servers. */
public interface Cluster extends AutoCloseable {
    /** Starts the servers (a no-op for an external ensemble). */
    void start() throws IOException;

    /** Waits until the servers serve (for ZooKeeper: one leader and the rest followers, or one standalone server). */
    void awaitHealthy(Duration timeout) throws IOException, InterruptedException;

    /** The client connect string, {@code host:port,host:port,...}: every node's client address, in order. */
    default String connectString() {
        return String.join(",", nodes().stream().map(ServerNode::clientAddress).toList());
    }

    List<ServerNode> nodes();

    /**
     * The network namespaces the servers run in, one each (cuts between them are iptables rules there), or null when
     * they share this machine's network.
     */
    default Netns netns() {
        return null;
    }

    /**
     * Where iptables cuts the servers apart when they run beyond this machine's network namespaces (each on a host
     * over SSH, each in a container), or null where there is no such place: see {@link #netns} for namespaces here.
     */
    default ServerNamespaces namespaces() {
        return null;
    }

    /** Stops everything this object started. Never throws for servers that are already gone. */
    @Override
    void close();
}
