package io.lockchaos.proxy;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One accepted client, its upstream socket and the two {@link Pump}s between them. Closing or resetting is
 * idempotent and may happen from any thread (API, timer, either pump).
 */
final class Connection {
    private static final int DIAL_TIMEOUT_MILLIS = 10_000;

    /** Per-connection state of one toxic. */
    static final class ToxicState {
        final double toxicity;
        final boolean applies;
        /** Bytes limit_data has let through; touched only by the pump of the toxic's direction. */
        long bytesPassed;

        ToxicState(double toxicity, boolean applies) {
            this.toxicity = toxicity;
            this.applies = applies;
        }
    }

    private final TcpProxy proxy;
    private final Socket client;
    private final Map<Long, ToxicState> states = new ConcurrentHashMap<>();
    private final List<Thread> pumpThreads = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private Socket upstream; // guarded by lock
    private boolean closed; // guarded by lock
    private int directionsEnded; // guarded by lock
    private volatile boolean pumping;

    Connection(TcpProxy proxy, Socket client) {
        this.proxy = proxy;
        this.client = client;
    }

    /** Dials the upstream and starts pumping, on threads of its own so a slow upstream never stalls accepting. */
    void start() {
        Threads.start("lockchaos-proxy-" + proxy.name() + "-upstream", this::dialAndPump);
    }

    private void dialAndPump() {
        Socket up = new Socket();
        try {
            up.setTcpNoDelay(true);
            up.connect(proxy.upstream().toSocketAddress(), DIAL_TIMEOUT_MILLIS);
            synchronized (lock) {
                if (closed) {
                    up.close();
                    return;
                }
                upstream = up;
            }
            Pump toServer = new Pump(this, Direction.UPSTREAM, client, up);
            Pump toClient = new Pump(this, Direction.DOWNSTREAM, up, client);
            pumpThreads.add(Thread.currentThread());
            pumpThreads.add(Threads.start("lockchaos-proxy-" + proxy.name() + "-downstream", toClient));
            pumping = true;
            proxy.toxics().forEach(this::toxicChanged);
            toServer.run();
        } catch (IOException e) {
            closeQuietly(up);
            close(); // upstream unreachable: the client sees its connection closed, as with Toxiproxy
        }
    }

    /** Returns the toxics of {@code direction} that apply to this connection, in chain order. */
    List<Toxic> activeToxics(Direction direction) {
        List<Toxic> all = proxy.toxics();
        if (all.isEmpty()) {
            return List.of();
        }
        return all.stream().filter(t -> t.stream() == direction && applies(t)).toList();
    }

    /** Decides once per connection (and again if its toxicity changes) whether a toxic applies here. */
    boolean applies(Toxic t) {
        return state(t).applies;
    }

    ToxicState state(Toxic t) {
        return states.compute(t.id(), (id, s) -> s != null && s.toxicity == t.toxicity() ? s
                : new ToxicState(t.toxicity(), ThreadLocalRandom.current().nextDouble() < t.toxicity()));
    }

    /**
     * Starts the timers of a toxic that was added or updated, or that existed when this connection opened. A timer
     * acts only if, when it fires, the proxy still has exactly this toxic and it applies to this connection.
     */
    void toxicChanged(Toxic t) {
        if (!pumping) {
            return; // dialAndPump starts the timers of all current toxics once pumping
        }
        long timeout = t.attribute("timeout");
        if (t.type() == ToxicType.TIMEOUT && timeout > 0) {
            later(t, timeout, this::close);
        } else if (t.type() == ToxicType.RESET_PEER) {
            later(t, timeout, this::reset);
        }
    }

    private void later(Toxic t, long delayMillis, Runnable action) {
        proxy.scheduler().schedule(() -> {
            if (proxy.toxics().contains(t) && applies(t)) {
                action.run();
            }
        }, Math.max(0, delayMillis), TimeUnit.MILLISECONDS);
    }

    /**
     * Called by a pump whose source ended: closes that pump's destination, as Toxiproxy does (no half-close); the
     * other pump then ends in turn and the connection is closed.
     */
    void directionEnded(Socket destination) {
        boolean both;
        synchronized (lock) {
            both = ++directionsEnded == 2;
        }
        closeQuietly(destination);
        if (both) {
            close();
        }
    }

    /** Closes both sockets with FIN. */
    void close() {
        shutdown(false);
    }

    /** Closes both sockets with RST (SO_LINGER 0), so each peer sees "connection reset". */
    void reset() {
        shutdown(true);
    }

    private void shutdown(boolean rst) {
        Socket up;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            up = upstream;
        }
        for (Socket s : new Socket[] {client, up}) {
            if (s != null) {
                if (rst) {
                    try {
                        s.setSoLinger(true, 0);
                    } catch (IOException ignored) {
                        // already closed: nothing left to reset
                    }
                }
                closeQuietly(s);
            }
        }
        Thread self = Thread.currentThread();
        pumpThreads.stream().filter(t -> t != self).forEach(Thread::interrupt); // wakes toxics' waits
        proxy.forget(this);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing is best effort
        }
    }
}
