package io.lockchaos.hazelcastlock;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.cp.lock.FencedLock;
import io.lockchaos.api.Backend;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Hazelcast's {@code FencedLock} ({@code hazelcast-fenced}, {@code hazelcast-fenced-unsafe}), written against {@code
 * io.lockchaos.api} and Hazelcast's client only, as a user wraps it: one Hazelcast client per process, the lock taken
 * with {@code tryLockAndGetFence} and given back with {@code unlock}. The lock is reentrant and owned by the pair of
 * the client's CP session and the thread (the worker's, which acquires and releases); its fence, which grows with
 * every new owner, is the grant's fencing token. The CP session lives while the client's heartbeats reach the members
 * and ends one session TTL after the last: the holder is not told, and its next call on the lock fails with {@code
 * LockOwnershipLostException}, which a release reports as the lock gone.
 *
 * <p>The client dials only the run's proxies ({@code smart routing} off, and no member list during reconnection), so
 * that a cut of the client cuts every connection it has. Whether the lock is Raft's (CP members) or the unsafe mode's
 * is the members' configuration, not the client's: the two recipes share this factory.
 *
 * <p>Settings ({@code lock_settings}): {@code pin_member} (default false): each process's client dials one member only
 * (see {@link #addresses}).
 */
public final class HazelcastFencedLock implements LockFactory {
    /** Hazelcast's INFO lines (a dozen per client) would fill the agents' logs; its warnings stay. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");

    static {
        HAZELCAST_LOG.setLevel(Level.WARNING);
    }

    @Override
    public Promises promises() {
        return Promises.exclusive().withReentry().withOwnerOnlyRelease();
    }

    @Override
    public Backend backend() {
        return Backend.HAZELCAST;
    }

    /**
     * Where a Hazelcast call that can wait without end runs, so that the caller waits a bounded time: with no
     * majority in the CP Subsystem a lock's proxy is never made (the client's CP group lookup joins without a
     * timeout) and a graceful shutdown waits 60 s per client to close its CP sessions.
     */
    private static final ExecutorService BOUNDED = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lockchaos-hazelcast-bounded");
        t.setDaemon(true);
        return t;
    });

    /** {@code call}'s result, or a TimeoutException naming {@code what} after {@code limit}. */
    private static <T> T bounded(Callable<T> call, Duration limit, String what) throws Exception {
        Future<T> f = BOUNDED.submit(call);
        try {
            return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new TimeoutException(what + " took longer than " + limit.toMillis() + " ms (no majority in the CP"
                    + " Subsystem?)");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    /** How long a call that should answer at once may take: the connection and the request timeouts together. */
    private static Duration limit(LockContext ctx) {
        return ctx.connectionTimeout().plus(ctx.requestTimeout());
    }

    /**
     * Shuts the client down as an application does (closing its CP sessions gives its locks back at once), bounded
     * by {@code limit}; past that the client is terminated and its sessions end with their TTL.
     */
    private static void shutdown(HazelcastInstance client, Duration limit) {
        try {
            bounded(() -> {
                client.shutdown();
                return null;
            }, limit, "shutting the client down");
        } catch (Exception e) {
            client.getLifecycleService().terminate();
        }
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        HazelcastInstance client = connect(ctx);
        try {
            // the client's connection to the cluster, as the history's states (CLIENT_DISCONNECTED, CLIENT_CONNECTED)
            client.getLifecycleService().addLifecycleListener(e -> {
                if (e.getState() == LifecycleEvent.LifecycleState.CLIENT_DISCONNECTED
                        || e.getState() == LifecycleEvent.LifecycleState.CLIENT_CONNECTED) {
                    ctx.state(e.getState().name());
                }
            });
            FencedLock lock = bounded(() -> client.getCPSubsystem().getLock(name(ctx.key())), limit(ctx),
                    "getting the lock's proxy");
            return new Client(client, lock, limit(ctx));
        } catch (Exception e) {
            client.getLifecycleService().terminate();
            throw e;
        }
    }

    /**
     * Locks held at the end: each by a CP session, which ends by itself once its client is gone, so none is a leak;
     * a lock that no session ever gives back shows as the final probe's failure instead.
     */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        HazelcastInstance client = connect(ctx);
        try {
            List<LockInspection.Entry> held = new ArrayList<>();
            for (String key : ctx.allKeys()) {
                if (bounded(() -> client.getCPSubsystem().getLock(name(key)).isLocked(), limit(ctx), "isLocked")) {
                    held.add(new LockInspection.Entry(key, name(key), 0));
                }
            }
            return new LockInspection(List.of(), held);
        } finally {
            shutdown(client, limit(ctx));
        }
    }

    /** A lock's name may not hold '@', which names a CP group. */
    private static String name(String key) {
        return key.replace('@', '_');
    }

    private static HazelcastInstance connect(LockContext ctx) {
        ClientConfig c = new ClientConfig();
        c.setClusterName("lockchaos");
        c.getNetworkConfig().setSmartRouting(false).setAddresses(new ArrayList<>(addresses(ctx)))
                .setConnectionTimeout(millis(ctx.connectionTimeout()));
        c.setProperty("hazelcast.client.internal.skip.member.list.during.reconnection", "true");
        // an operation without an answer ends after the request timeout rather than Hazelcast's 120 s
        c.setProperty("hazelcast.client.invocation.timeout.seconds",
                Long.toString(Math.max(1, ctx.requestTimeout().toSeconds())));
        c.setProperty("hazelcast.client.heartbeat.interval", "1000");
        c.setProperty("hazelcast.client.heartbeat.timeout", Integer.toString(millis(ctx.sessionTimeout())));
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.getConnectionStrategyConfig().getConnectionRetryConfig().setInitialBackoffMillis(100)
                .setMaxBackoffMillis(1000).setClusterConnectTimeoutMillis(Long.MAX_VALUE);
        return HazelcastClient.newHazelcastClient(c);
    }

    /**
     * The members a client dials: all of them, or with {@code lock_settings} {@code pin_member} only the one its
     * process is pinned to (process number modulo members, as Jepsen gives each client a node), so that a client on
     * the minority side of a split between members stays there rather than fail over to the majority.
     */
    static java.util.List<String> addresses(LockContext ctx) {
        java.util.List<String> all = ctx.endpoints();
        String pin = ctx.settings().getOrDefault("pin_member", "false");
        if (!pin.equals("true") && !pin.equals("false")) {
            throw new IllegalArgumentException("lock_settings: pin_member: expected true or false, got '" + pin + "'");
        }
        return pin.equals("true") ? java.util.List.of(all.get(Math.floorMod(ctx.process(), all.size()))) : all;
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    /** One process's client of one lock. */
    private static final class Client implements LockClient {
        private final HazelcastInstance client;
        private final FencedLock lock;
        private final Duration limit;

        Client(HazelcastInstance client, FencedLock lock, Duration limit) {
            this.client = client;
            this.lock = lock;
            this.limit = limit;
        }

        /**
         * The grant's session is 0, not known: the lock is owned by a CP session that Hazelcast's public API does not
         * name, and one client goes through several (a new one after each expiry), so the client's own identity
         * would claim a session alive that was not.
         */
        @Override
        public Grant acquire(Duration timeout) {
            long fence = lock.tryLockAndGetFence(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return fence == FencedLock.INVALID_FENCE ? null : Grant.fenced(lock.getName(), fence, 0);
        }

        /**
         * Gives the lock back: false when this client no longer owned it ({@code LockOwnershipLostException}: its
         * CP session was closed while it held the lock; or another session of its own holds it now), any other
         * failure an unknown outcome.
         */
        @Override
        public boolean release() {
            try {
                lock.unlock();
                return true;
            } catch (IllegalMonitorStateException e) {
                // LockOwnershipLostException among them: the session that held it was closed
                return false;
            }
        }

        @Override
        public void close() {
            shutdown(client, limit);
        }
    }
}
