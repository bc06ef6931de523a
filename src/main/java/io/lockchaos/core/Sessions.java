package io.lockchaos.core;

import io.lockchaos.client.ClientHandle;
import io.lockchaos.client.LockClient;
import io.lockchaos.client.Recorder;
import io.lockchaos.cluster.ZooKeepers;
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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.ZooKeeper;

/**
 * The run's client sessions: makes a lock client of the spec's recipe on a new session, records its connection
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

    /** The run's client agents, or null when clients run in this JVM. */
    private final io.lockchaos.agent.AgentLauncher agents;
    /** Which agent the next client goes to. */
    private final java.util.concurrent.atomic.AtomicInteger nextAgent = new java.util.concurrent.atomic.AtomicInteger();

    Sessions(TestSpec spec, Recorder recorder) {
        this(spec, recorder, null);
    }

    Sessions(TestSpec spec, Recorder recorder, io.lockchaos.agent.AgentLauncher agents) {
        this.spec = spec;
        this.recorder = recorder;
        this.agents = agents;
    }


    /**
     * A client on a new session to {@code connect}; for Curator recipes connection states are recorded for the
     * worker's current process and passed to {@code onState}. {@code handle}, when not null, is told where the
     * session's ZooKeeper handle is, for the nemesis.
     *
     * @param allKeys every lock key, for a multi-lock
     */
    LockClient client(String connect, String key, boolean read, List<String> allKeys, IntSupplier process,
                      Consumer<String> onState, ClientHandle handle) {
        try {
            if (spec.recipe().redis()) {
                // no session: the client's id stands for one, in the history and in the final inspection
                LockClient lock = io.lockchaos.redis.RedisLocks.open(spec.recipe(), key, List.of(connect.split(",")),
                        spec.redis().leaseMillis(), spec.redis().instanceTimeoutMillis());
                long id = io.lockchaos.redis.RedisLocks.idOf(lock);
                AutoCloseable session = lock::close; // closing the "session" closes the client, in the background
                register(session, () -> id);
                return closing(session, process, () -> id, lock, false);
            }
            if (spec.recipe().naive()) {
                ZooKeeper zk = zookeeper(connect, false);
                AutoCloseable session = zk::close; // one object: it is the key under which the session is open
                register(session, zk::getSessionId);
                if (handle != null) {
                    handle.zookeeper(() -> zk);
                }
                return closing(session, process, zk::getSessionId, spec.recipe().open(zk, key, read), true);
            }
            if (agents != null) {
                return agentClient(connect, key, read, allKeys, process, onState, handle);
            }
            CuratorFramework c = CuratorFrameworkFactory.newClient(connect, (int) spec.clients().sessionTimeoutMillis(),
                    (int) Math.max(1000, spec.clients().sessionTimeoutMillis() / 2), new RetryNTimes(3, 100));
            LongSupplier id = () -> {
                try {
                    return c.getZookeeperClient().getZooKeeper().getSessionId();
                } catch (Exception e) {
                    return 0; // no session right now
                }
            };
            io.lockchaos.client.SessionOfState current = new io.lockchaos.client.SessionOfState();
            c.getConnectionStateListenable().addListener((cf, state) -> {
                long about = current.about(state.name(), id.getAsLong());
                recorder.state(process.getAsInt(), state.name(), about);
                onState.accept(state.name());
            });
            c.start();
            if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
                c.close();
                throw new IllegalStateException("no connection to " + connect);
            }
            current.connected(id.getAsLong());
            register(c, id);
            if (handle != null) {
                handle.zookeeper(() -> {
                    try {
                        return c.getZookeeperClient().getZooKeeper();
                    } catch (Exception e) {
                        return null;
                    }
                });
            }
            LockClient lock = spec.recipe().open(c, key, read, allKeys);
            return closing(c, process, () -> {
                long now = id.getAsLong();
                return now != 0 ? now : current.last(); // in an outage the handle may have no session: the last one
            }, lock, true);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A client served by one of the run's agents, on the agent's Curator: the same recipe, session settings and
     * recorded states as an in-process client's (the states are stamped as they arrive from the agent).
     */
    private LockClient agentClient(String connect, String key, boolean read, List<String> allKeys, IntSupplier process,
                                   Consumer<String> onState, ClientHandle handle) throws Exception {
        // with an agent per worker, a worker's every process (a new one after each indeterminate op) uses its own
        boolean own = handle != null && agents.agents().size() == spec.clients().count() && agents.agents().size() > 1;
        io.lockchaos.agent.AgentLauncher.Agent agent = agents.forClient(own ? handle.worker()
                : nextAgent.getAndIncrement());
        io.lockchaos.agent.RemoteClient c = io.lockchaos.agent.RemoteClient.connect(agent.address());
        if (own) {
            c.dedicated(agent.process().pid());
        }
        try {
            c.open(spec.recipe().wireName(), connect, key, read, allKeys, spec.clients().sessionTimeoutMillis(),
                    Math.max(1000, spec.clients().sessionTimeoutMillis() / 2), (state, about) -> {
                        recorder.state(process.getAsInt(), state, about);
                        onState.accept(state);
                    });
        } catch (Exception e) {
            c.close();
            throw e;
        }
        register(c, c::lastSessionId);
        if (handle != null) {
            handle.session(c);
        }
        return closing(c, process, c::lastSessionId, c, false);
    }

    /**
     * {@code lock}, whose close also closes its session (in the background): a worker closes its client when the
     * process is retired, and the application it stands for would not keep that session. The history says so: a
     * {@code state CLOSED} of the retired process naming the session it closed.
     */
    private LockClient closing(AutoCloseable session, IntSupplier process, LongSupplier sessionId, LockClient lock,
                               boolean closeLock) {
        return new LockClient() {
            @Override
            public io.lockchaos.client.Grant acquire(Duration timeout) throws Exception {
                return lock.acquire(timeout);
            }

            @Override
            public boolean release() throws Exception {
                return lock.release();
            }

            @Override
            public boolean release(io.lockchaos.client.Resources.DangerPoint danger) throws Exception {
                return lock.release(danger);
            }

            @Override
            public boolean stillHolds() {
                return lock.stillHolds();
            }

            @Override
            public long validUntilNanos() {
                return lock.validUntilNanos();
            }

            @Override
            public LockClient readSide() {
                return lock.readSide();
            }

            @Override
            public void close() {
                if (closeLock) {
                    lock.close(); // else the session's close is the lock's, done once, in the background
                }
                boolean mine;
                synchronized (Sessions.this) {
                    mine = open.remove(session) != null;
                }
                if (mine) {
                    recorder.state(process.getAsInt(), "CLOSED", sessionId.getAsLong());
                    closer.execute(() -> closeQuietly(session));
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

    /** A raw handle; kept open until {@link #closeAll} when {@code keep}, else the caller closes it. */
    ZooKeeper zookeeper(String connect, boolean keep) throws Exception {
        ZooKeeper zk = ZooKeepers.connect(connect, (int) spec.clients().sessionTimeoutMillis(), Duration.ofSeconds(30));
        if (keep) {
            register(zk::close, zk::getSessionId);
        }
        return zk;
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
