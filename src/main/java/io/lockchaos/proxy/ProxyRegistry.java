package io.lockchaos.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;

/** The named proxies of one server. Thread-safe. */
final class ProxyRegistry {
    private final ScheduledExecutorService scheduler;
    private final Map<String, TcpProxy> proxies = new TreeMap<>(); // guarded by this

    ProxyRegistry(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Creates a proxy and starts it when {@code enabled}.
     *
     * @throws ApiException 409 when the name is taken; 500 when the listen address cannot be bound
     */
    synchronized TcpProxy create(String name, HostPort listen, HostPort upstream, boolean enabled) {
        if (proxies.containsKey(name)) {
            throw ApiException.conflict("proxy already exists");
        }
        TcpProxy p = new TcpProxy(name, listen, upstream, scheduler);
        if (enabled) {
            p.enable();
        }
        proxies.put(name, p);
        return p;
    }

    /** Returns the named proxy; 404 if absent. */
    synchronized TcpProxy get(String name) {
        TcpProxy p = proxies.get(name);
        if (p == null) {
            throw ApiException.notFound("proxy not found");
        }
        return p;
    }

    /** Returns all proxies, ordered by name. */
    synchronized List<TcpProxy> all() {
        return new ArrayList<>(proxies.values());
    }

    /** Stops and removes a proxy, closing its connections; 404 if absent. */
    synchronized void delete(String name) {
        get(name).disable();
        proxies.remove(name);
    }

    /** Toxiproxy's reset: every proxy enabled, every toxic removed. */
    synchronized void reset() {
        for (TcpProxy p : proxies.values()) {
            p.removeAllToxics();
            p.enable();
        }
    }

    /** Stops every proxy and forgets them. */
    synchronized void closeAll() {
        proxies.values().forEach(TcpProxy::disable);
        proxies.clear();
    }
}
