package io.lockchaos.zookeeper;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.data.Stat;

/**
 * Curator's InterProcessMutex. The recipe keeps its node path protected; a subclass exposes it so the grant can carry
 * the node's czxid and ephemeral owner. Curator swallows NoNode on release, so the node is checked first: if it is
 * gone, the lock was lost while held.
 */
public final class CuratorMutexClient implements LockClient {
    private final CuratorFramework client;
    private final ExposedMutex mutex;

    /** InterProcessMutex with its lock path visible (the multi-lock builds on it too). */
    static final class ExposedMutex extends InterProcessMutex {
        ExposedMutex(CuratorFramework client, String path) {
            super(client, path);
        }

        String path() {
            return getLockPath();
        }
    }

    public CuratorMutexClient(CuratorFramework client, String lockPath) {
        this.client = client;
        this.mutex = new ExposedMutex(client, lockPath);
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        if (!mutex.acquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return null;
        }
        String path = mutex.path();
        Stat stat = CuratorLocks.statAfterGrant(client, path);
        long session = client.getZookeeperClient().getZooKeeper().getSessionId();
        if (stat == null) {
            return new Grant(path, -1, session, 0, Grant.sequenceOf(path));
        }
        return new Grant(path, stat.getCzxid(), session, stat.getEphemeralOwner(), Grant.sequenceOf(path));
    }

    @Override
    public boolean release() throws Exception {
        return release(() -> { });
    }

    @Override
    public boolean release(DangerPoint danger) throws Exception {
        return releaseOutcome(danger) != Release.GONE;
    }

    /** See {@link CheckedRelease}: the check, then the danger point, then Curator's release whatever the check did. */
    @Override
    public Release releaseOutcome(DangerPoint danger) throws Exception {
        String path = mutex.path();
        return CheckedRelease.run(() -> path != null && client.checkExists().forPath(path) != null, danger,
                mutex::release);
    }

    @Override
    public void close() {
        // the session belongs to the caller
    }
}
