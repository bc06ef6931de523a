package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.lockchaos.cluster.ContainerAddresses;
import io.lockchaos.cluster.Docker;
import io.lockchaos.proxy.ProxyServer;
import java.io.IOException;
import java.net.URI;
import org.testcontainers.containers.Network;

/** The Toxiproxy backends. */
public final class ToxiproxyBackends {
    private ToxiproxyBackends() {
    }

    /** An embedded Toxiproxy-compatible server on 127.0.0.1 and a free port, stopped on close. */
    public static ToxiproxyBackend embedded() throws IOException {
        ProxyServer server = ProxyServer.start(0);
        return backend(new ToxiproxyClient(server.host(), server.port()), "embedded " + server.url(), server::close);
    }

    /** A loopback backend: {@code client}, described as {@code what}, ended by {@code close}. */
    private static ToxiproxyBackend backend(ToxiproxyClient client, String what, Runnable close) {
        return new ToxiproxyBackend() {
            @Override
            public ToxiproxyClient client() {
                return client;
            }

            @Override
            public String describe() {
                return what;
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }

    /**
     * A Toxiproxy container ({@code ghcr.io/shopify/toxiproxy:2.12.0}) on {@code network}, the servers' (ZooKeeper's
     * {@code ContainerEnsemble.Builder#network}), stopped and removed on close; its proxies reach the servers as
     * {@code servers} says. Its {@link ToxiproxyBackend#placement() placement} must be used for the run's {@link
     * ProxyNetwork}. It publishes the 32 proxy ports Testcontainers' ToxiproxyContainer does, which is room for 32
     * client proxies (one per client per server: 10 clients on 3 servers); see {@link #container(Network, int,
     * ContainerAddresses)} for more. Needs Docker.
     *
     * @throws IllegalStateException when Docker is not available
     */
    public static ToxiproxyBackend container(Network network, ContainerAddresses servers) {
        return container(network, ContainerToxiproxy.PUBLISHED_BY_DEFAULT, servers);
    }

    /**
     * As {@link #container(Network, ContainerAddresses)}, publishing {@code clientProxyPorts} proxy ports (8666 up) so
     * that clients x servers client proxies fit: a run that needs more fails at the first proxy beyond them, with one
     * line.
     */
    public static ToxiproxyBackend container(Network network, int clientProxyPorts, ContainerAddresses servers) {
        // the embedded server's image where docker/build-images made it, else Shopify's (pulled)
        return ContainerToxiproxy.start(network, Docker.image(
                Docker.LOCAL_TOXIPROXY, ContainerToxiproxy.DEFAULT_IMAGE), clientProxyPorts, servers);
    }

    /**
     * A toxiproxy-server the user runs, at {@code url} (http://host:port). Nothing is started; on close the proxies
     * this run made (named client-* and peer-*) are deleted.
     *
     * @throws IllegalArgumentException for a URL that is not http://host:port, or a server that does not answer
     */
    public static ToxiproxyBackend external(String url) {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL: " + url);
        }
        if (!"http".equals(u.getScheme()) || u.getHost() == null || u.getPort() < 0) {
            throw new IllegalArgumentException("expected http://host:port, got " + url);
        }
        ToxiproxyClient client = new ToxiproxyClient(u.getHost(), u.getPort());
        try {
            client.version();
        } catch (IOException e) {
            throw new IllegalArgumentException("no Toxiproxy answers at " + url + " (" + e.getMessage() + ")");
        }
        return backend(client, "external " + url, () -> {
            try {
                for (Proxy p : client.getProxies()) {
                    if (p.getName().startsWith("client-") || p.getName().startsWith("peer-")) {
                        p.delete();
                    }
                }
            } catch (IOException e) {
                // cleaning up is best effort: a failure here must not cost the run its verdict
                System.err.println("lockchaos: warning: could not delete this run's proxies at " + url + " ("
                        + e.getMessage() + ")");
            }
        });
    }
}
