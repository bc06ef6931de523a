package io.lockchaos.cluster;

/**
 * How servers in containers are reached from inside their Docker network (what a Toxiproxy container there forwards
 * to): server N by the network alias {@code aliasPrefix + N}, on the ports it listens on in its container. The nodes'
 * own {@code host} and {@code clientPort} are the Docker host's published address, for host-side clients.
 *
 * @param aliasPrefix the alias of server N without N ({@code zk} for ZooKeeper's {@code zk1}, {@code zk2}, ...)
 * @param clientPort where clients connect, inside the container
 * @param quorumPort where servers talk to each other, inside the container (0 for none)
 * @param electionPort where servers elect a leader, inside the container (0 for none)
 */
public record ContainerAddresses(String aliasPrefix, int clientPort, int quorumPort, int electionPort) {
    /** The network alias of server {@code id}. */
    public String alias(int id) {
        return aliasPrefix + id;
    }

    /** {@code alias:port} of server {@code n}. */
    public String of(ServerNode n, int port) {
        return alias(n.id()) + ":" + port;
    }
}
