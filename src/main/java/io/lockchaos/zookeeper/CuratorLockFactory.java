package io.lockchaos.zookeeper;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.client.Closing;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.RecipeFactory;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.ZooKeeper;

/**
 * A Curator recipe as a {@link LockFactory}: each client on a Curator session of its own, whose connection states it
 * reports (each about the session it concerns, see {@link SessionOfState}). Used in the runner and in client agents.
 */
public final class CuratorLockFactory extends RecipeFactory {
    public CuratorLockFactory(LockRecipe recipe) {
        super(recipe, LockRecipe::curator, "Curator");
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        // No ensemble tracker: Curator's (on by default) replaces the connect string with the client addresses of the
        // servers' configuration when it changes, and a reconfiguration (membership faults) would move every client
        // off its own proxies, where client faults are made, onto the servers directly.
        CuratorSettings settings = CuratorSettings.of(ctx.settings());
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(ctx.connectString())
                .sessionTimeoutMs((int) ctx.sessionTimeout().toMillis())
                .connectionTimeoutMs(settings.connectionTimeoutMillis(ctx.connectionTimeout().toMillis()))
                .retryPolicy(new RetryNTimes(settings.retryTimes(), settings.retrySleepMillis()))
                .ensembleTracker(false).build();
        SessionOfState current = new SessionOfState();
        ctx.zookeeper(() -> handle(c));
        ctx.session(() -> {
            ZooKeeper zk = handle(c);
            long now = zk == null ? 0 : zk.getSessionId();
            return now != 0 ? now : current.last(); // in an outage the handle may have no session: the last one
        }, () -> {
            ZooKeeper zk = handle(c);
            return zk == null ? null : zk.getSessionPasswd();
        });
        c.getConnectionStateListenable().addListener((cf, state) -> {
            ZooKeeper zk = handle(c);
            ctx.state(state.name(), current.about(state.name(), zk == null ? 0 : zk.getSessionId()));
        });
        c.start();
        try {
            if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to " + ctx.connectString());
            }
            current.connected(c.getZookeeperClient().getZooKeeper().getSessionId());
            return new Closing(open(recipe, c, ctx), c);
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    /** The client's current handle, or null while it has none. */
    private static ZooKeeper handle(CuratorFramework c) {
        try {
            return c.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            return null;
        }
    }

    /** The client's current session id, or 0 while it has none. */
    static long sessionOf(CuratorFramework c) {
        ZooKeeper zk = handle(c);
        return zk == null ? 0 : zk.getSessionId();
    }

    /**
     * A client of Curator recipe {@code recipe} on {@code client}'s session, for {@code ctx}: its key is the lock's
     * path (a multi-lock takes every key), its read side says which lock of a read/write lock it takes, and a leader
     * election reports the leadership its callbacks take away to it.
     *
     * @throws IllegalStateException for the tutorial's locks, which need a raw ZooKeeper handle
     */
    static LockClient open(LockRecipe recipe, CuratorFramework client, LockContext ctx) {
        return switch (recipe.kind()) {
            case MUTEX -> CuratorLocks.semaphoreMutex(client, ctx.key());
            case REENTRANT_MUTEX -> new CuratorMutexClient(client, ctx.key());
            case SEMAPHORE -> CuratorLocks.semaphore(client, ctx.key(), recipe.permits());
            case READ_WRITE -> CuratorLocks.readWrite(client, ctx.key(), ctx.read());
            case MULTI -> CuratorLocks.multi(client, ctx.allKeys());
            case LEADER_LATCH -> new CuratorLeaderLatch(client, ctx.key(), ctx);
            case LEADER_SELECTOR -> new CuratorLeaderSelector(client, ctx.key(), ctx);
            default -> throw new IllegalStateException(recipe.wireName() + " is not a Curator recipe");
        };
    }
}
