package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.lockchaos.proxy.ProxyServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;

/** The Toxiproxy backends. */
public final class ToxiproxyBackends {
    private ToxiproxyBackends() {
    }

    /** An embedded Toxiproxy-compatible server on 127.0.0.1 and a free port, stopped on close. */
    public static ToxiproxyBackend embedded() throws IOException {
        ProxyServer server = ProxyServer.start(0);
        ToxiproxyClient client = new ToxiproxyClient(server.host(), server.port());
        return new ToxiproxyBackend() {
            @Override
            public ToxiproxyClient client() {
                return client;
            }

            @Override
            public String describe() {
                return "embedded " + server.url();
            }

            @Override
            public void close() {
                server.close();
            }
        };
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
        return new ToxiproxyBackend() {
            @Override
            public ToxiproxyClient client() {
                return client;
            }

            @Override
            public String describe() {
                return "external " + url;
            }

            @Override
            public void close() {
                try {
                    for (Proxy p : client.getProxies()) {
                        if (p.getName().startsWith("client-") || p.getName().startsWith("peer-")) {
                            p.delete();
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cleaning up proxies at " + url, e);
                }
            }
        };
    }
}
