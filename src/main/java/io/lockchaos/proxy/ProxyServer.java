package io.lockchaos.proxy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * An embedded server that speaks the Toxiproxy v2 HTTP API, for use through {@code
 * eu.rekawek.toxiproxy.ToxiproxyClient} exactly like a real {@code toxiproxy-server}:
 *
 * <pre>{@code
 * try (ProxyServer server = ProxyServer.start(0)) {
 *     ToxiproxyClient client = new ToxiproxyClient(server.host(), server.port());
 *     Proxy zk = client.createProxy("zk1", "127.0.0.1:0", "127.0.0.1:2181");
 *     zk.toxics().timeout("blackhole", ToxicDirection.UPSTREAM, 0);
 * }
 * }</pre>
 *
 * <p>The API and every proxy listen on 127.0.0.1 only (inside a container image: on the container's interfaces, see
 * {@link #start(String, int)}). All threads are daemons. Thread-safe.
 */
public final class ProxyServer implements AutoCloseable {
    private final HttpServer http;
    private final ExecutorService httpThreads;
    private final ScheduledExecutorService timers;
    private final ProxyRegistry registry;
    private final String bind;

    private ProxyServer(HttpServer http, ExecutorService httpThreads, ScheduledExecutorService timers,
            ProxyRegistry registry, String bind) {
        this.bind = bind;
        this.http = http;
        this.httpThreads = httpThreads;
        this.timers = timers;
        this.registry = registry;
    }

    /**
     * Starts a server whose API listens on 127.0.0.1:{@code port}.
     *
     * @param port the API port; 0 picks a free one (see {@link #port()})
     * @throws IOException when the port cannot be bound
     */
    public static ProxyServer start(int port) throws IOException {
        return start(HostPort.LOOPBACK, port);
    }

    /**
     * Starts a server whose API (and whose proxies, when asked to) listen on {@code bind}: 127.0.0.1, or 0.0.0.0
     * for the server inside a container image ({@code lockchaos toxiproxy-server}), whose interfaces are the
     * container's own and whose ports are published on the host's loopback only.
     */
    public static ProxyServer start(String bind, int port) throws IOException {
        if (!bind.equals(HostPort.LOOPBACK) && !bind.equals(HostPort.ANY)) {
            throw new IllegalArgumentException("bind: expected 127.0.0.1 or 0.0.0.0 (inside a container), got " + bind);
        }
        HttpLimits.apply();
        ScheduledExecutorService timers =
                Executors.newSingleThreadScheduledExecutor(Threads.daemonFactory("lockchaos-proxy-timer"));
        ExecutorService httpThreads = Executors.newCachedThreadPool(Threads.daemonFactory("lockchaos-proxy-api"));
        ProxyRegistry registry = new ProxyRegistry(timers);
        try {
            HttpServer http = Threads.callOnDaemon("lockchaos-proxy-start", () -> {
                HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bind), port), 0);
                s.createContext("/", new ApiHandler(registry, bind));
                s.setExecutor(httpThreads);
                s.start();
                return s;
            });
            return new ProxyServer(http, httpThreads, timers, registry, bind);
        } catch (Exception e) {
            timers.shutdownNow();
            httpThreads.shutdownNow();
            throw e instanceof IOException io ? io : new IOException("cannot start the proxy server", e);
        }
    }

    /** Returns the host the API listens on: 127.0.0.1 (or 0.0.0.0 inside a container). */
    public String host() {
        return bind;
    }

    /** Returns the port the API listens on. */
    public int port() {
        return http.getAddress().getPort();
    }

    /** Returns the API's base URL, e.g. {@code http://127.0.0.1:8474}. */
    public String url() {
        return "http://" + host() + ":" + port();
    }

    /** Stops the API and every proxy and closes all their sockets. Idempotent. */
    @Override
    public void close() {
        http.stop(0);
        registry.closeAll();
        httpThreads.shutdownNow();
        timers.shutdownNow();
    }
}
