package io.lockchaos.api.testlocks;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;

/**
 * A user's lock in the test tree: InterProcessMutex on whatever Curator its classpath brings, stopping at SUSPENDED or
 * LOST, its grants fenced by the lock node's czxid.
 */
public final class PlainMutex implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withReentry().withOwnerOnlyRelease().withFifo();
    }

    /** The node setUp makes once per run; every open checks it is there. */
    static final String SET_UP = "/plain-mutex-set-up";

    /**
     * Makes {@link #SET_UP}: a second call in the same run would find it there and fail the run, so a run that passes
     * called it once, before any open (which needs it). With the setting {@code fail_set_up} it refuses instead.
     */
    @Override
    public void setUp(LockContext ctx) throws Exception {
        if (ctx.settings().containsKey("fail_set_up")) {
            throw new IllegalStateException("set-up refused: " + ctx.settings().get("fail_set_up"));
        }
        try (CuratorFramework c = CuratorFrameworkFactory.newClient(ctx.connectString(),
                new RetryOneTime(100))) {
            c.start();
            c.create().forPath(SET_UP);
        }
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        CuratorFramework c = CuratorFrameworkFactory.newClient(ctx.connectString(), (int) ctx.sessionTimeout().toMillis(),
                (int) ctx.connectionTimeout().toMillis(), new RetryOneTime(100));
        boolean[] doubt = new boolean[1];
        ctx.zookeeper(() -> {
            try {
                return c.getZookeeperClient().getZooKeeper();
            } catch (Exception e) {
                return null;
            }
        });
        c.getConnectionStateListenable().addListener((cf, s) -> {
            synchronized (doubt) {
                doubt[0] |= !s.isConnected();
            }
            ctx.state(s.name());
        });
        c.start();
        // the workload's lock_settings, told back as a state of the lock's own so that a test can see them arrive
        ctx.settings().forEach((k, v) -> ctx.state("SETTING " + k + "=" + v));
        if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
            c.close();
            throw new IllegalStateException("no connection to " + ctx.connectString());
        }
        if (c.checkExists().forPath(SET_UP) == null) {
            c.close();
            throw new IllegalStateException("opened before setUp made " + SET_UP);
        }
        InterProcessMutex m = new InterProcessMutex(c, ctx.key());
        return new LockClient() {
            @Override
            public Grant acquire(Duration timeout) throws Exception {
                if (!m.acquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    return null;
                }
                synchronized (doubt) {
                    doubt[0] = false;
                }
                String node = m.getParticipantNodes().iterator().next();
                long czxid = c.checkExists().forPath(node).getCzxid();
                return Grant.of(node, czxid, c.getZookeeperClient().getZooKeeper().getSessionId());
            }

            @Override
            public boolean release() throws Exception {
                m.release();
                return true;
            }

            @Override
            public boolean stillHolds() {
                synchronized (doubt) {
                    return !doubt[0];
                }
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }
}
