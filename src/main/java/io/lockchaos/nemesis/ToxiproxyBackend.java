package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.ToxiproxyClient;

/**
 * A Toxiproxy API server the run's proxies live in: embedded in this JVM, a user's running toxiproxy-server, or a
 * container. Whichever it is, lockchaos talks to it only through the toxiproxy-java client.
 */
public interface ToxiproxyBackend extends AutoCloseable {
    /** The API client. */
    ToxiproxyClient client();

    /** What it is, for the console and test.json: embedded, external URL, or container. */
    String describe();

    /** Stops what this backend started (nothing, for an external server); proxies it made are deleted. */
    @Override
    void close();
}
