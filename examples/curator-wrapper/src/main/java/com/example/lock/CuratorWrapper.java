package com.example.lock;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.data.Stat;

/**
 * The kind of lock wrapper applications write around Curator's InterProcessMutex: their own retry policy, their own
 * listener on connection states. Whether it heeds those states is the one difference between the two factories.
 */
final class CuratorWrapper implements LockClient {
    private final CuratorFramework curator;
    private final InterProcessMutex mutex;
    private final boolean heedStates;
    private final String ctxKey;
    /** Set by the listener when the connection is in doubt, cleared by the next grant. */
    private volatile boolean inDoubt;

    CuratorWrapper(LockContext ctx, boolean heedStates) throws Exception {
        this.heedStates = heedStates;
        this.ctxKey = ctx.key();
        this.curator = CuratorFrameworkFactory.builder().connectString(ctx.connectString())
                .sessionTimeoutMs((int) ctx.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) ctx.connectionTimeout().toMillis())
                .retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
        ctx.zookeeper(() -> {
            try {
                return curator.getZookeeperClient().getZooKeeper();
            } catch (Exception e) {
                return null;
            }
        });
        curator.getConnectionStateListenable().addListener((c, state) -> {
            if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
                inDoubt = true;
            }
            ctx.state(state.name()); // recorded in the history either way
        });
        curator.start();
        if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
            curator.close();
            throw new IllegalStateException("no connection to " + ctx.connectString());
        }
        this.mutex = new InterProcessMutex(curator, ctx.key());
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        if (!mutex.acquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return null;
        }
        inDoubt = false;
        long session = curator.getZookeeperClient().getZooKeeper().getSessionId();
        String node = mutex.getParticipantNodes().stream().findFirst().orElse(ctxKey);
        if (!heedStates) {
            return Grant.of(node, -1, session); // no fencing token: its writes are not fenced
        }
        // the lock node's creation zxid grows with every grant: the token that fences this holder's writes
        Stat stat = curator.checkExists().forPath(node);
        return Grant.of(node, stat == null ? -1 : stat.getCzxid(), session);
    }

    @Override
    public boolean release() throws Exception {
        mutex.release();
        return true;
    }

    @Override
    public boolean stillHolds() {
        return !heedStates || !inDoubt;
    }

    @Override
    public void close() {
        curator.close();
    }
}
