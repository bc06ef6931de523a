package io.lockchaos.shedlock;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.provider.zookeeper.curator.ZookeeperCuratorLockProvider;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;

/**
 * ShedLock's ZooKeeper provider ({@code shedlock-provider-zookeeper-curator}, whose last release is 4.42.0) on the
 * run's ensemble, through a Curator client of its own, used as a scheduled job uses it.
 *
 * <p>A lock is a persistent node {@code /shedlock/NAME} whose data is {@code lock_until}, written by the application
 * ({@code lockAtMostFor} after the attempt began) and compared with the application's clock; a taker's write is
 * conditioned on the version it read, the unlock's is not. The job cannot ask whether it still holds the lock and
 * its unlock says nothing, as with {@link ShedLockJdbc}; ZooKeeper's sessions play no part (the node outlives them).
 */
public final class ShedLockZooKeeper implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.ZOOKEEPER;
    }

    /** Nodes of the run's keys whose {@code lock_until} has not passed: each ends by itself, so none is a leak. */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        List<LockInspection.Entry> expiring = new ArrayList<>();
        try (CuratorFramework client = connect(ctx)) {
            for (String key : ctx.allKeys()) {
                String path = ZookeeperCuratorLockProvider.DEFAULT_PATH + "/" + name(key);
                try {
                    byte[] data = client.getData().forPath(path);
                    if (Instant.parse(new String(data, StandardCharsets.UTF_8)).isAfter(Instant.now())) {
                        expiring.add(new LockInspection.Entry(key, path, 0));
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
        return new ShedLockClient(new ZookeeperCuratorLockProvider(client)::lock, name(ctx.key()),
                ctx.leaseAsked().orElse(ctx.lease()), Duration.ZERO, client::close);
    }

    /** The provider names its node {@code /shedlock/NAME}: the last part of the run's key. */
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
}
