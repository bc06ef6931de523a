package io.lockchaos.proxy;

import java.net.InetSocketAddress;

/** A {@code host:port} address as Toxiproxy writes it in {@code listen} and {@code upstream}. */
record HostPort(String host, int port) {
    /** The only host this server listens on. */
    static final String LOOPBACK = "127.0.0.1";

    /** Parses {@code host:port}; the port may be 0 only when {@code allowZero}. */
    static HostPort parse(String field, String s, boolean allowZero) {
        if (s == null || s.isBlank()) {
            throw ApiException.badRequest("missing required field: " + field);
        }
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            throw ApiException.badRequest(field + " must be host:port, got: " + s);
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(field + " has a bad port: " + s);
        }
        if (port < (allowZero ? 0 : 1) || port > 65535) {
            throw ApiException.badRequest(field + " has a port out of range: " + s);
        }
        return new HostPort(s.substring(0, colon), port);
    }

    /**
     * Parses a listen address and rejects any host but the loopback: a fault injector must not expose the services
     * it fronts to the network. {@code localhost} is accepted and normalised to 127.0.0.1.
     */
    static HostPort parseListen(String s) {
        return parseListen(s, LOOPBACK);
    }

    /**
     * As {@link #parseListen(String)} for a server that binds {@code bind}: inside a container (the only place a
     * server binds 0.0.0.0, see {@code ProxyServer.start(String, int)}) a proxy may listen on every interface of the
     * container, which is what other containers and the published ports reach.
     */
    static HostPort parseListen(String s, String bind) {
        HostPort hp = parse("listen", s, true);
        if (bind.equals(ANY) && (hp.host().equals(ANY) || hp.host().equals("[::]") || hp.host().equals("::"))) {
            return new HostPort(ANY, hp.port());
        }
        if (!hp.host().equals(LOOPBACK) && !hp.host().equalsIgnoreCase("localhost")) {
            throw ApiException.badRequest("listen address must be on 127.0.0.1 (this proxy binds to the loopback"
                    + " interface only), got: " + s);
        }
        return new HostPort(LOOPBACK, hp.port());
    }

    /** Every interface: allowed only to a server in a container. */
    static final String ANY = "0.0.0.0";

    /** Returns an address to dial; resolved now, so a name that does not resolve fails at connect time. */
    InetSocketAddress toSocketAddress() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
