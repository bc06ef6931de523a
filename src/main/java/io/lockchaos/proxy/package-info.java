/**
 * An embedded, in-JVM stand-in for a Toxiproxy v2 server: the default backend for network faults when neither Docker
 * nor a {@code toxiproxy-server} binary is available. {@link io.lockchaos.proxy.ProxyServer#start(int)} serves the
 * subset of Toxiproxy's HTTP API that the {@code toxiproxy-java} client uses (proxies, toxics, reset, version), so
 * nemesis code talks to it exactly as it would to a real server and can switch backends by changing a URL. Every
 * listener, API and proxied, binds to 127.0.0.1 only: a fault injector must never open a port to the network. Each
 * proxied connection is two pumps (one per direction) that pass every chunk through the proxy's current toxic chain,
 * so adding or removing a toxic changes long-lived connections (a ZooKeeper session's one socket) at once, not only
 * new ones. All threads are daemons and {@link io.lockchaos.proxy.ProxyServer#close()} closes every socket.
 */
package io.lockchaos.proxy;
