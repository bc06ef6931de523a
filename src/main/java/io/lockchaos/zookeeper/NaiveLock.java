package io.lockchaos.zookeeper;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.Grant;
import java.time.Duration;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * What the tutorial's two naive locks share as lockchaos clients: {@code tryLock}/{@code unlock} are theirs, verbatim
 * in the subclasses; this class only turns them into grants and release outcomes.
 */
abstract class NaiveLock implements LockClient {
    final ZooKeeper zk;
    String currentLock;

    NaiveLock(ZooKeeper zk) {
        this.zk = zk;
    }

    abstract boolean tryLock(long timeout) throws Exception;

    /** The tutorial's unlock: delete our node. */
    public void unlock() throws Exception {
        if (currentLock != null) {
            zk.delete(currentLock, -1);
        }
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        if (!tryLock(timeout.toMillis())) {
            return null;
        }
        Stat s = zk.exists(currentLock, false);
        return new Grant(currentLock, s == null ? -1 : s.getCzxid(), zk.getSessionId(),
                s == null ? 0 : s.getEphemeralOwner(), Grant.sequenceOf(currentLock));
    }

    @Override
    public boolean release() throws Exception {
        try {
            unlock();
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        // the session belongs to the caller
    }
}
