package io.lockchaos.core;

import io.lockchaos.agent.AgentLauncher;
import io.lockchaos.agent.AgentWire;
import io.lockchaos.agent.ClientAgents;
import io.lockchaos.agent.RemoteClient;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.client.ClientContext;
import io.lockchaos.client.ClientHandle;
import io.lockchaos.client.ForwardingLockClient;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.client.LockSettings;
import io.lockchaos.client.Recorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.zookeeper.ZooKeeper;

/**
 * The run's client sessions: opens a lock client of the spec's recipe on a new session, records its connection
 * states, keeps each open session's current id for the final inspection, closes a retired process's session when its
 * worker lets the client go, and closes the rest at the end. Thread-safe.
 */
final class Sessions {
    private final TestSpec spec;
    private final Recorder recorder;
    /** The sessions still open, each with its current id: Curator may move a client to a new session. */
    private final Map<AutoCloseable, LongSupplier> open = new java.util.LinkedHashMap<>();
    /** Closes the sessions of retired processes without holding up their workers. */
    private final ExecutorService closer = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lockchaos-session-close");
        t.setDaemon(true);
        return t;
    });

    /** The servers' own addresses, in the order of every client's connect string, or null (see {@link #servers}). */
    private volatile String servers;
    /** The run's client agents, or null when clients run in this JVM. */
    private final ClientAgents agents;
    /** The server endpoints the agents were told they may dial. */
    private final java.util.Set<String> allowed = new java.util.HashSet<>();
    /** Which agent the next client goes to. */
    private final java.util.concurrent.atomic.AtomicInteger nextAgent = new java.util.concurrent.atomic.AtomicInteger();

    Sessions(TestSpec spec, Recorder recorder) {
        this(spec, recorder, null);
    }

    Sessions(TestSpec spec, Recorder recorder, ClientAgents agents) {
        this.spec = spec;
        this.recorder = recorder;
        this.agents = agents;
    }


    /**
     * A client on a new session to {@code connect}, opened by the recipe's {@link LockFactory} (in this JVM) or by a
     * client agent; the connection states it reports are recorded for the worker's current process and passed to
     * {@code onState}. {@code handle}, when not null, is told where the session is, for the nemesis.
     *
     * @param allKeys every lock key, for a multi-lock
     */
    LockClient client(String connect, String key, boolean read, List<String> allKeys, IntSupplier process,
                      Consumer<String> onState, ClientHandle handle) {
        try {
            if (agents != null) {
                return agentClient(connect, key, read, allKeys, process, onState, handle);
            }
            ClientContext[] self = new ClientContext[1];
            ClientContext ctx = new ClientContext(settings(connect, key, read, allKeys), process,
                    (state, session, why) -> report(process, state, session, why, onState, self[0]),
                    handle == null ? null : handle::zookeeper);
            self[0] = ctx;
            LockClient lock = factory().open(ctx);
            register(lock, ctx::sessionId);
            return closing(lock, process, ctx::sessionId);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Records a state a client reported and tells its worker; a revocation is told first, so that a worker that has
     * just recorded a grant either sees it and ends the hold itself or finds the state recorded after its grant.
     */
    private void report(IntSupplier process, String state, long session, String why, Consumer<String> onState,
                        ClientContext ctx) {
        boolean revoked = LockContext.REVOKED.equals(state);
        if (revoked) {
            onState.accept(state);
        }
        // where a session (re)connected: which server it is on now, when the lock gave its ZooKeeper handle
        boolean connected = state.equals("CONNECTED") || state.equals("RECONNECTED");
        recorder.state(process.getAsInt(), state, session, why, connected && ctx != null ? ctx.connectedServer() : 0);
        if (!revoked) {
            onState.accept(state);
        }
    }

    /** The recipe's factory, for clients in this JVM (a user's lock always runs in agents). */
    private LockFactory factory() {
        return LockServices.of(spec.recipe()).factory(spec.recipe());
    }

    /**
     * Says the servers' own addresses ({@code host:port,...}, in the order of the clients' connect strings), which a
     * client maps to its proxies when its servers hand out addresses ({@link LockContext#routes}).
     */
    void servers(String connectString) {
        this.servers = connectString;
    }

    /** What the run opens a client with: the same in this JVM and in an agent. */
    private LockSettings settings(String connect, String key, boolean read, List<String> allKeys) {
        return new LockSettings(connect, key, read, allKeys, spec.clients().sessionTimeoutMillis(),
                spec.redis().leaseMillis(), spec.redis().instanceTimeoutMillis(),
                TestSpecs.lockSettings(spec.text("lock_settings")), spec.redis().leaseAsked(), servers);
    }

    /**
     * Runs the factory's {@link LockFactory#setUp} once, with the first key's settings on the servers of {@code
     * connect}: in the first agent when clients run in agents, else here.
     *
     * @throws IllegalArgumentException with the factory's message, which stops the run in one line
     */
    void setUp(String connect, List<String> allKeys) {
        try {
            onceForTheRun(connect, allKeys, (c, s) -> {
                c.setUp(spec.recipe().wireName(), s);
                return null;
            }, (f, ctx) -> {
                f.setUp(ctx);
                return null;
            });
        } catch (Exception e) {
            throw new IllegalArgumentException("the lock's setUp failed: " + e.getMessage(), e);
        }
    }

    /**
     * What the lock's own {@link LockFactory#inspect} finds of {@code allKeys} on the servers of {@code connect}, as
     * the service's inspection reports it, or null when the factory leaves it to the service: in the first agent when
     * clients run in agents, else here.
     *
     * @throws RuntimeException when the inspection was cut short
     */
    LockService.Inspection inspectLock(String connect, List<String> allKeys) {
        try {
            return onceForTheRun(connect, allKeys, (c, s) -> {
                Map<String, List<Map<String, Object>>> found = c.inspect(spec.recipe().wireName(), s);
                return found == null ? null : new LockService.Inspection(found.get("left"), found.get("expiring"));
            }, (f, ctx) -> {
                LockInspection found = f.inspect(ctx);
                return found == null ? null : new LockService.Inspection(entries(found.left()),
                        entries(found.expiring()));
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** A call of the run's factory in the first agent, with that agent's client and the settings. */
    private interface InAgent<T> {
        T call(RemoteClient agent, LockSettings settings) throws Exception;
    }

    /** A call of the run's factory in this JVM, with the first key's context. */
    private interface InRunner<T> {
        T call(LockFactory factory, ClientContext context) throws Exception;
    }

    /**
     * Calls the factory once for the whole run, with the first key's settings (states it reports are not recorded):
     * through the first agent when clients run in agents, else here.
     */
    private <T> T onceForTheRun(String connect, List<String> allKeys, InAgent<T> inAgent, InRunner<T> inRunner)
            throws Exception {
        LockSettings s = settings(connect, allKeys.get(0), false, allKeys);
        if (agents != null) {
            allow(connect);
            AgentLauncher.Agent agent = agents.forClient(0);
            try (RemoteClient c = RemoteClient.connect(agent.address(), agent.secret())) {
                return inAgent.call(c, s);
            }
        }
        return inRunner.call(factory(), new ClientContext(s, () -> 0, (state, session, why) -> { }, null));
    }

    private static List<Map<String, Object>> entries(List<LockInspection.Entry> entries) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (LockInspection.Entry e : entries) {
            out.add(Map.of("key", e.key(), "node", e.name(), "owner", e.owner()));
        }
        return out;
    }

    /**
     * A client served by one of the run's agents, on the agent's Curator: the same recipe, session settings and
     * recorded states as an in-process client's (the states are stamped as they arrive from the agent).
     */
    private LockClient agentClient(String connect, String key, boolean read, List<String> allKeys, IntSupplier process,
                                   Consumer<String> onState, ClientHandle handle) throws Exception {
        // with an agent per worker, a worker's every process (a new one after each indeterminate op) uses its own
        boolean own = handle != null && agents.agents().size() == spec.clients().count() && agents.agents().size() > 1
                && agents.agents().get(0).process() != null; // a pause stops a process of this machine

        allow(connect);
        AgentLauncher.Agent agent = agents.forClient(own ? handle.worker()
                : nextAgent.getAndIncrement());
        RemoteClient c = RemoteClient.connect(agent.address(), agent.secret());
        if (own) {
            c.dedicated(agent.process().pid());
        }
        c.clock(agent.clockFile());
        try {
            c.open(spec.recipe().wireName(), settings(connect, key, read, allKeys), process.getAsInt(),
                    (state, about, why) -> report(process, state, about, why, onState, null));
        } catch (Exception e) {
            c.close();
            throw e;
        }
        register(c, c::lastSessionId);
        if (handle != null) {
            handle.session(c);
        }
        return closing(c, process, c::lastSessionId);
    }

    /**
     * Tells the agents they may dial the servers of {@code connect} unless they were told already: the agents refuse
     * an open naming a server the runner did not give, and this runner gives exactly the servers it opens clients on
     * (a newcomer's too, when a client is opened on it).
     */
    private synchronized void allow(String connect) throws java.io.IOException {
        List<String> fresh = new ArrayList<>();
        for (String e : AgentWire.endpoints(connect)) {
            if (!allowed.contains(e) && !fresh.contains(e)) {
                fresh.add(e);
            }
        }
        if (!fresh.isEmpty()) {
            agents.allow(fresh);
            allowed.addAll(fresh);
        }
    }

    /**
     * {@code lock}, whose close (which ends its session too) runs in the background: a worker closes its client when
     * the process is retired, and the application it stands for would not keep that session. The history says so: a
     * {@code state CLOSED} of the retired process naming the session it closed.
     */
    private LockClient closing(LockClient lock, IntSupplier process, LongSupplier sessionId) {
        return new ForwardingLockClient(lock) {
            @Override
            public void close() {
                boolean mine;
                synchronized (Sessions.this) {
                    mine = open.remove(lock) != null;
                }
                if (mine) {
                    recorder.state(process.getAsInt(), "CLOSED", sessionId.getAsLong());
                    closer.execute(() -> closeQuietly(lock));
                }
            }
        };
    }

    private static void closeQuietly(AutoCloseable session) {
        try {
            session.close();
        } catch (Exception e) {
            // closing is best effort: the servers go at the end anyway
        }
    }

    private synchronized void register(AutoCloseable session, LongSupplier id) {
        open.put(session, id);
    }

    /** The current id of every session still open (0 for one without a session right now). */
    synchronized List<Long> currentIds() {
        List<Long> out = new ArrayList<>();
        for (LongSupplier id : open.values()) {
            out.add(id.getAsLong());
        }
        return out;
    }

    /** Closes every session, many at a time: each close waits for the server, and runs may have a thousand. */
    void closeAll() {
        List<AutoCloseable> all;
        synchronized (this) {
            all = List.copyOf(open.keySet());
            open.clear();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(64, all.size())));
        for (AutoCloseable s : all) {
            pool.execute(() -> closeQuietly(s));
        }
        pool.shutdown();
        closer.shutdown();
        try {
            pool.awaitTermination(2, TimeUnit.MINUTES);
            closer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
