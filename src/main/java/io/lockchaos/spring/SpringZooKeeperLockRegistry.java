package io.lockchaos.spring;

import io.lockchaos.api.Backend;
import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/**
 * Spring Integration's {@code ZookeeperLockRegistry} on the run's ensemble, set up as its reference manual shows
 * outside a Spring context: a Curator client and a registry per process, {@code registry.obtain(key)}, {@code
 * tryLock(timeout)}, {@code unlock()}.
 *
 * <p>A lock is Curator's {@code InterProcessMutex} under {@code ROOT/KEY}: an ephemeral sequential node, held while
 * it is the first, for as long as the session that made it lives. The registry adds nothing to Curator's lock: it
 * does not listen to the connection's state, so a holder is not told when its session is suspended or lost, and the
 * {@code Lock} it holds has no way to ask. lockchaos takes it to promise an exclusive lock released by its owner only,
 * bound to the holder's session (no lease: the session's end is what frees it).
 *
 * <p>This class imports only {@code io.lockchaos.api}, Spring Integration and the Curator and ZooKeeper classes its
 * set-up takes: it is written as a user writes a lock, against the release the run names.
 */
public final class SpringZooKeeperLockRegistry implements LockFactory {
    /** The registry's root, the lock nodes' parent. */
    static final String ROOT = "/lockchaos-spring";

    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease();
    }

    @Override
    public Backend backend() {
        return Backend.ZOOKEEPER;
    }

    /** Lock nodes of the run's keys still there: each is ephemeral and ends with its session, so none is a leak. */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        List<LockInspection.Entry> expiring = new ArrayList<>();
        try (CuratorFramework client = connect(ctx)) {
            for (String key : ctx.allKeys()) {
                String path = ROOT + "/" + name(key);
                try {
                    for (String child : client.getChildren().forPath(path)) {
                        expiring.add(new LockInspection.Entry(key, path + "/" + child, 0));
                    }
                } catch (KeeperException.NoNodeException e) {
                    // never taken
                }
            }
        }
        return new LockInspection(List.of(), expiring);
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        CuratorFramework client = connect(ctx);
        client.getConnectionStateListenable().addListener((c, state) -> ctx.state(state.name()));
        ctx.zookeeper(() -> {
            try {
                return client.getZookeeperClient().getZooKeeper();
            } catch (Exception e) {
                return null;
            }
        });
        return new Client(client, new ZookeeperLockRegistry(client, ROOT), name(ctx.key()));
    }

    /** The registry makes a key a node under its root: the last part of the run's key. */
    private static String name(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    private static CuratorFramework connect(LockContext ctx) throws Exception {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(ctx.connectString())
                .sessionTimeoutMs((int) ctx.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) ctx.connectionTimeout().toMillis())
                .retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
        client.start();
        if (!client.blockUntilConnected((int) ctx.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
            client.close();
            throw new IllegalStateException("no connection to " + ctx.connectString() + " within "
                    + ctx.connectionTimeout().toMillis() + " ms");
        }
        return client;
    }

    private static final class Client implements LockClient {
        private final CuratorFramework client;
        private final ZookeeperLockRegistry registry;
        private final String key;
        private Lock held;

        Client(CuratorFramework client, ZookeeperLockRegistry registry, String key) {
            this.client = client;
            this.registry = registry;
            this.key = key;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            Lock lock = registry.obtain(key);
            if (!lock.tryLock(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return null;
            }
            held = lock;
            // the session that made the lock node: when the servers expire it, the node goes with it
            return Grant.session(ROOT + "/" + key, client.getZookeeperClient().getZooKeeper().getSessionId());
        }

        /**
         * Curator's release deletes the lock node and ignores a node already gone (its session expired), and the
         * registry's {@code unlock()} returns nothing: whether the lock was still held, the library does not say.
         */
        @Override
        public Release releaseOutcome(DangerPoint danger) throws Exception {
            danger.reach();
            Lock lock = held;
            held = null;
            lock.unlock();
            return Release.UNKNOWN;
        }

        @Override
        public boolean release() {
            throw new UnsupportedOperationException("see releaseOutcome");
        }

        @Override
        public void close() {
            registry.destroy();
            client.close();
        }
    }
}
