package io.lockchaos.zookeeper;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The exclusive lock of the tutorial ({@code ZooKeeperLock}), ported faithfully with its defects, for lockchaos
 * to find: on timeout it returns false without deleting its node (every later acquirer then waits behind it: a
 * leak); when woken it does not check that it is now first; if the predecessor vanished before the watch was set,
 * it waits out its whole timeout. Only the lock path is a parameter instead of a constant.
 */
public final class NaiveExclusiveLock extends NaiveLock {
    private final String lockPath;
    private final String lockName;

    public NaiveExclusiveLock(ZooKeeper zk, String lockPath, String lockName) {
        super(zk);
        this.lockPath = lockPath;
        this.lockName = lockName;
    }

    /** The tutorial's tryLock, unchanged but for the path. */
    @Override
    public boolean tryLock(long timeout) throws Exception {
        currentLock = zk.create(lockPath + "/" + lockName + "-", "locked".getBytes(),
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        List<String> locks = zk.getChildren(lockPath, false);
        locks.sort(Comparator.naturalOrder());
        String nodeName = currentLock.substring(currentLock.lastIndexOf("/") + 1);
        if (locks.get(0).equals(nodeName)) {
            return true;
        }
        int index = locks.indexOf(nodeName);
        String prevLock = locks.get(index - 1);
        CountDownLatch latch = new CountDownLatch(1);
        zk.exists(lockPath + "/" + prevLock, event -> {
            if (event.getType() == Event.EventType.NodeDeleted) {
                latch.countDown();
            }
        });
        return latch.await(timeout, TimeUnit.MILLISECONDS);
    }
}
