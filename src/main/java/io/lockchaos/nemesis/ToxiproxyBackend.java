package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.ToxiproxyClient;

/**
 * A Toxiproxy API server the run's proxies live in: embedded in this JVM, a user's running toxiproxy-server, or a
 * container. Whichever it is, lockchaos talks to it only through the toxiproxy-java client.
 */
public interface ToxiproxyBackend extends AutoCloseable {
    /** The API client. */
    ToxiproxyClient client();

    /**
     * Where this server's proxies listen and how clients and servers reach them: pass it to {@link
     * ProxyNetwork#ProxyNetwork(ToxiproxyClient, ProxyPlacement)}. The default, loopback on 127.0.0.1, fits the
     * embedded server and a toxiproxy-server on this machine's own network.
     */
    default ProxyPlacement placement() {
        return ProxyPlacement.loopback("127.0.0.1");
    }

    /**
     * How many client proxies (one per client per server) this server can make reachable: unbounded, except for a
     * container, which publishes a fixed set of ports. A runner should refuse {@code clients x servers} above it.
     */
    default int clientProxyCapacity() {
        return Integer.MAX_VALUE;
    }

    /** What it is, for the console and test.json: embedded, external URL, or container. */
    String describe();

    /** Stops what this backend started (nothing, for an external server); proxies it made are deleted. */
    @Override
    void close();
}
