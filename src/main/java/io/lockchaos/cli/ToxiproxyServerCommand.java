package io.lockchaos.cli;

import io.lockchaos.proxy.ProxyServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code toxiproxy-server}: the embedded Toxiproxy-compatible server on its own, until it is killed. It is what the
 * {@code lockchaos/toxiproxy} image runs ({@code docker/build-images}), standing in for Shopify's image where that
 * cannot be pulled, and it serves any Toxiproxy client on this machine too.
 */
@Command(name = "toxiproxy-server", mixinStandardHelpOptions = true,
        header = "Serve the Toxiproxy HTTP API (the embedded server) until killed.",
        description = {"Runs the embedded Toxiproxy-compatible server: the API on --host:--port, the proxies on the",
            "addresses clients ask for. --host 0.0.0.0 is meant for inside a container only, whose ports are",
            "published on the host's 127.0.0.1."})
final class ToxiproxyServerCommand implements Callable<Integer> {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "127.0.0.1 (default) or 0.0.0.0 in a"
            + " container")
    String host;

    @Option(names = "--port", defaultValue = "8474", description = "the API port (default: ${DEFAULT-VALUE})")
    int port;

    @Override
    public Integer call() throws Exception {
        if (!host.equals("127.0.0.1") && !java.nio.file.Files.exists(java.nio.file.Path.of("/.dockerenv"))
                && System.getenv("LOCKCHAOS_IN_CONTAINER") == null) {
            // an unauthenticated API that relays to any address must not face a network outside a container
            throw new UserError("--host: " + host + " is allowed inside a container only (this is not one)");
        }
        ProxyServer server;
        try {
            server = ProxyServer.start(host, port);
        } catch (IllegalArgumentException e) {
            throw new UserError("--host: " + e.getMessage());
        }
        System.out.println("toxiproxy-server: API on http://" + server.host() + ":" + server.port());
        System.out.flush();
        Thread.currentThread().join(); // until the process is killed; every thread of the server is a daemon
        return 0;
    }
}
