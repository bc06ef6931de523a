package io.lockchaos.nemesis;

import io.lockchaos.cluster.ServerNode;
import java.net.InetSocketAddress;

/**
 * Where the run's proxies listen, what they forward to, and how clients and servers reach them. For proxies in this
 * JVM or on this machine ({@link #loopback}) these are all the same loopback addresses; for a proxy server in a
 * container they differ: a proxy listens on a container port, host-side clients dial its published port, servers on
 * the container network dial the container's alias, and the proxy forwards to the servers' aliases.
 */
public interface ProxyPlacement {
    /** Which port of a server a proxy fronts. */
    enum Target { CLIENT, QUORUM, ELECTION }

    /**
     * The listen address to create proxy {@code name} with.
     *
     * @param forClients whether host-side clients dial it (else only servers do)
     * @throws IllegalStateException with a one-line reason when no address is left
     */
    String listen(String name, boolean forClients);

    /** The address a host-side client dials for a client proxy that the API reports listening at {@code listen}. */
    InetSocketAddress clientSide(String listen);

    /** The address a server dials for a peer proxy that the API reports listening at {@code listen}. */
    InetSocketAddress serverSide(String listen);

    /** The upstream ({@code host:port}) of a proxy to {@code target} of server {@code n}, as the proxy sees it. */
    String upstream(ServerNode n, Target target);

    /** Proxies listening on {@code host} and a port the proxy server picks, forwarding to the nodes' own addresses. */
    static ProxyPlacement loopback(String host) {
        return new ProxyPlacement() {
            @Override
            public String listen(String name, boolean forClients) {
                return host + ":0";
            }

            @Override
            public InetSocketAddress clientSide(String listen) {
                return parse(listen);
            }

            @Override
            public InetSocketAddress serverSide(String listen) {
                return parse(listen);
            }

            @Override
            public String upstream(ServerNode n, Target target) {
                return switch (target) {
                    case CLIENT -> n.clientAddress();
                    case QUORUM -> n.host() + ":" + n.quorumPort();
                    case ELECTION -> n.host() + ":" + n.electionPort();
                };
            }

            private InetSocketAddress parse(String l) {
                int colon = l.lastIndexOf(':');
                return new InetSocketAddress(l.substring(0, colon), Integer.parseInt(l.substring(colon + 1)));
            }
        };
    }
}
