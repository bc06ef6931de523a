package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.lockchaos.cluster.ContainerAddresses;
import io.lockchaos.cluster.Docker;
import io.lockchaos.cluster.ServerNode;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import org.testcontainers.containers.Network;
import org.testcontainers.toxiproxy.ToxiproxyContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Toxiproxy server in a container on the servers' network, with the network alias {@value #ALIAS}: the backend for
 * servers in containers (ZooKeeper's {@code cluster container}). Host-side clients reach a proxy only through a port
 * the container publishes, and the published ports are fixed when the container is created: Testcontainers' ToxiproxyContainer publishes 32
 * ({@value #FIRST_CLIENT_PORT}-8697) and this class publishes more on request. Every client has its own proxy to every
 * server (so one client can be cut off alone), which takes clients x servers of them: 10 clients on 3 servers take 30.
 * {@link #clientProxyCapacity()} tells a runner how many fit, so it can refuse a topology up front; otherwise the
 * first client proxy beyond the range fails with one line naming the range.
 * Peer proxies (two per directed pair of servers: 12 for 3 servers, 40 for 5) are dialled only from inside the
 * network, so they take unpublished ports from {@value #FIRST_PEER_PORT} up and never run short. Proxies forward to
 * the servers' aliases ({@link ContainerAddresses}).
 */
final class ContainerToxiproxy implements ToxiproxyBackend {
    static final String DEFAULT_IMAGE = "ghcr.io/shopify/toxiproxy:2.12.0";
    static final String ALIAS = "toxiproxy";
    static final int FIRST_CLIENT_PORT = 8666;
    /** What Testcontainers' ToxiproxyContainer publishes by itself (8666-8697). */
    static final int PUBLISHED_BY_DEFAULT = 32;
    static final int FIRST_PEER_PORT = 9000;

    private final ToxiproxyContainer container;
    private final ToxiproxyClient client;
    private final Placement placement;

    private ContainerToxiproxy(ToxiproxyContainer container, int clientPorts, ContainerAddresses servers) {
        this.container = container;
        this.client = new ToxiproxyClient(container.getHost(), container.getControlPort());
        this.placement = new Placement(container.getHost(), container::getMappedPort, clientPorts, servers);
    }

    /**
     * Starts the container on {@code network}, publishing {@code clientPorts} proxy ports (at least 32), for the
     * servers that {@code servers} says how to reach.
     */
    static ContainerToxiproxy start(Network network, String image, int clientPorts, ContainerAddresses servers) {
        if (clientPorts < 1 || clientPorts > 1000) {
            throw new IllegalArgumentException("client proxy ports: expected 1 to 1000, got " + clientPorts);
        }
        ToxiproxyContainer c = new ToxiproxyContainer(DockerImageName.parse(image)
                .asCompatibleSubstituteFor("ghcr.io/shopify/toxiproxy"))
                .withNetwork(network)
                .withNetworkAliases(ALIAS);
        Docker.confine(c);
        for (int p = FIRST_CLIENT_PORT + PUBLISHED_BY_DEFAULT; p < FIRST_CLIENT_PORT + clientPorts; p++) {
            c.addExposedPort(p);
        }
        c.start();
        return new ContainerToxiproxy(c, Math.max(clientPorts, PUBLISHED_BY_DEFAULT), servers);
    }

    @Override
    public ToxiproxyClient client() {
        return client;
    }

    @Override
    public int clientProxyCapacity() {
        return placement.clientPorts;
    }

    @Override
    public ProxyPlacement placement() {
        return placement;
    }

    /**
     * Client proxies on the published ports from {@value #FIRST_CLIENT_PORT}, reached at the Docker host and the
     * mapped port; peer proxies on unpublished ports from {@value #FIRST_PEER_PORT}, reached at {@value #ALIAS}.
     */
    static final class Placement implements ProxyPlacement {
        private final String host;
        private final IntUnaryOperator mappedPort;
        private final int clientPorts;
        private final ContainerAddresses servers;
        private final AtomicInteger nextClientPort = new AtomicInteger(FIRST_CLIENT_PORT);
        private final AtomicInteger nextPeerPort = new AtomicInteger(FIRST_PEER_PORT);

        /**
         * @param host where the Docker host publishes ports
         * @param mappedPort the published port of a container port
         * @param clientPorts how many ports from {@value #FIRST_CLIENT_PORT} are published
         * @param servers how the proxies reach the servers on the network
         */
        Placement(String host, IntUnaryOperator mappedPort, int clientPorts, ContainerAddresses servers) {
            this.host = host;
            this.mappedPort = mappedPort;
            this.clientPorts = clientPorts;
            this.servers = servers;
        }

        @Override
        public String listen(String name, boolean forClients) {
            if (!forClients) {
                return "0.0.0.0:" + nextPeerPort.getAndIncrement();
            }
            int port = nextClientPort.getAndIncrement();
            if (port >= FIRST_CLIENT_PORT + clientPorts) {
                throw new IllegalStateException("toxiproxy container: client proxy " + name + " needs a published"
                        + " port, but all " + clientPorts + " (" + FIRST_CLIENT_PORT + "-"
                        + (FIRST_CLIENT_PORT + clientPorts - 1) + ") are taken: each client needs one per server,"
                        + " so run fewer clients or publish more ports"
                        + " (ToxiproxyBackends.container(network, ports, servers))");
            }
            return "0.0.0.0:" + port;
        }

        @Override
        public InetSocketAddress clientSide(String listen) {
            return InetSocketAddress.createUnresolved(host, mappedPort.applyAsInt(port(listen)));
        }

        @Override
        public InetSocketAddress serverSide(String listen) {
            return InetSocketAddress.createUnresolved(ALIAS, port(listen));
        }

        @Override
        public String upstream(ServerNode n, Target target) {
            return servers.of(n, switch (target) {
                case CLIENT -> servers.clientPort();
                case QUORUM -> servers.quorumPort();
                case ELECTION -> servers.electionPort();
            });
        }
    }

    /** The port of a listen address as Toxiproxy reports it ({@code [::]:8666}, {@code 0.0.0.0:8666}). */
    static int port(String listen) {
        return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    }

    @Override
    public String describe() {
        return "container " + container.getDockerImageName() + " at http://" + container.getHost() + ":"
                + container.getControlPort();
    }

    @Override
    public void close() {
        container.stop();
    }
}
