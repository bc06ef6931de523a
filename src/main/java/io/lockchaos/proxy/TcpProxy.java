package io.lockchaos.proxy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * One named proxy: a listener on 127.0.0.1, its open {@link Connection}s and its toxic chain. Configuration changes
 * are serialised on this object; the data path reads the toxic list without locking (it is replaced, never mutated).
 */
final class TcpProxy {
    private static final AtomicLong TOXIC_IDS = new AtomicLong();

    private final String name;
    private final ScheduledExecutorService scheduler;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private volatile HostPort listen;
    private volatile HostPort upstream;
    private volatile List<Toxic> toxics = List.of();
    private ServerSocket server; // guarded by this; null while disabled
    private Thread acceptor; // guarded by this; the thread accepting on server

    TcpProxy(String name, HostPort listen, HostPort upstream, ScheduledExecutorService scheduler) {
        this.name = name;
        this.listen = listen;
        this.upstream = upstream;
        this.scheduler = scheduler;
    }

    String name() {
        return name;
    }

    HostPort upstream() {
        return upstream;
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** Returns the toxics in chain order; an immutable list. */
    List<Toxic> toxics() {
        return toxics;
    }

    synchronized ProxySnapshot snapshot() {
        return new ProxySnapshot(name, listen, upstream, server != null, toxics);
    }

    /**
     * Starts listening unless already listening. A listen port of 0 is replaced by the port bound, so that disabling
     * and enabling again keeps the address clients were given.
     *
     * @throws ApiException 500 when the address cannot be bound
     */
    synchronized void enable() {
        if (server != null) {
            return;
        }
        ServerSocket s = null;
        // a listener just closed under a thread blocked in accept() releases its port only when that thread wakes:
        // rebinding the same port right after a restart may need a few tries
        for (int attempt = 1; ; attempt++) {
            try {
                s = new ServerSocket();
                s.setReuseAddress(true); // re-enabling must not wait for the old connections' TIME_WAIT
                s.bind(new InetSocketAddress(InetAddress.getByName(listen.host()), listen.port()));
                break;
            } catch (java.net.BindException e) {
                closeQuietly(s);
                if (listen.port() == 0 || attempt == REBIND_TRIES) {
                    throw new ApiException(500, "listen tcp " + listen + ": " + e.getMessage());
                }
                sleepQuietly(REBIND_PAUSE_MILLIS);
            } catch (IOException e) {
                closeQuietly(s);
                throw new ApiException(500, "listen tcp " + listen + ": " + e.getMessage());
            }
        }
        server = s;
        listen = new HostPort(listen.host(), s.getLocalPort());
        ServerSocket accepting = s;
        acceptor = Threads.start("lockchaos-proxy-" + name + "-accept", () -> acceptLoop(accepting));
    }

    /** Stops listening and closes every connection; new connects are refused. */
    synchronized void disable() {
        if (server == null) {
            return;
        }
        closeQuietly(server);
        server = null;
        // the port is released only once the thread blocked in accept() has woken, and until then a connect may still
        // succeed: wait for it (it takes no lock of this proxy), so that disabled means refused on return
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        acceptor = null;
        new ArrayList<>(connections).forEach(Connection::close);
    }

    /** Applies a change of address or state; like Toxiproxy, a changed address restarts the proxy. */
    synchronized void update(HostPort newListen, HostPort newUpstream, boolean enabled) {
        boolean moved = !newListen.equals(listen) || !newUpstream.equals(upstream);
        if (moved || !enabled) {
            disable();
        }
        listen = newListen;
        upstream = newUpstream;
        if (enabled) {
            enable();
        }
    }

    /** Appends a toxic to the chain and starts its timers on open connections. */
    synchronized Toxic addToxic(Toxic requested) {
        if (find(requested.name()) != null) {
            throw ApiException.conflict("toxic already exists");
        }
        Toxic t = requested.withId(TOXIC_IDS.incrementAndGet());
        List<Toxic> next = new ArrayList<>(toxics);
        next.add(t);
        toxics = List.copyOf(next);
        connections.forEach(c -> c.toxicChanged(t));
        return t;
    }

    /** Replaces a toxic in place (keeping its chain position and per-connection state). */
    synchronized Toxic updateToxic(String toxicName, UnaryOperator<Toxic> change) {
        Toxic old = toxic(toxicName);
        Toxic t = change.apply(old);
        toxics = toxics.stream().map(x -> x == old ? t : x).toList();
        connections.forEach(c -> c.toxicChanged(t));
        return t;
    }

    synchronized void removeToxic(String toxicName) {
        Toxic old = toxic(toxicName);
        toxics = toxics.stream().filter(x -> x != old).toList();
        removed(List.of(old));
    }

    synchronized void removeAllToxics() {
        List<Toxic> old = toxics;
        toxics = List.of();
        removed(old);
    }

    /**
     * Toxiproxy closes the connections a timeout toxic held when the toxic goes (its Cleanup closes the stub): the
     * data it swallowed is gone, and a stream with a hole in it must not resume.
     */
    private void removed(List<Toxic> gone) {
        for (Toxic t : gone) {
            if (t.type() == ToxicType.TIMEOUT) {
                new ArrayList<>(connections).stream().filter(c -> c.applies(t)).forEach(Connection::close);
            }
        }
    }

    /** Returns the named toxic; 404 if absent. */
    Toxic toxic(String toxicName) {
        Toxic t = find(toxicName);
        if (t == null) {
            throw ApiException.notFound("toxic not found");
        }
        return t;
    }

    private Toxic find(String toxicName) {
        return toxics.stream().filter(t -> t.name().equals(toxicName)).findFirst().orElse(null);
    }

    void forget(Connection c) {
        connections.remove(c);
    }

    private void acceptLoop(ServerSocket s) {
        while (!s.isClosed()) {
            Socket client;
            try {
                client = s.accept();
                client.setTcpNoDelay(true);
            } catch (IOException e) {
                backOff(s); // closed by disable(): the loop ends; otherwise (out of file handles) retry, but not in a spin
                continue;
            }
            Connection c = new Connection(this, client);
            connections.add(c);
            if (s.isClosed()) {
                c.close(); // disable() ran between accept and add and missed this one
            } else {
                c.start();
            }
        }
    }

    /** Tries at binding a port again after a restart, {@link #REBIND_PAUSE_MILLIS} apart (1 s in all). */
    private static final int REBIND_TRIES = 50;
    private static final long REBIND_PAUSE_MILLIS = 20;

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void backOff(ServerSocket s) {
        if (!s.isClosed()) {
            sleepQuietly(10);
        }
    }

    private static void closeQuietly(ServerSocket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing is best effort
            }
        }
    }
}
