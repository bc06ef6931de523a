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
 * The read/write lock of the tutorial ({@code ZooKeeperReadWriteLock}), ported faithfully with its defects. It
 * sorts children by their full names, so every {@code read-} node sorts before every {@code write-} node whatever
 * their sequence numbers: a reader that arrives while a writer holds sees no writer before it and acquires. It also
 * keeps the exclusive lock's timeout leak and missing re-check.
 */
public final class NaiveReadWriteLock extends NaiveLock {
    private final String lockPath;
    private final String lockName;
    private final boolean isRead;

    public NaiveReadWriteLock(ZooKeeper zk, String lockPath, String lockName, boolean isRead) {
        super(zk);
        this.lockPath = lockPath;
        this.lockName = lockName;
        this.isRead = isRead;
    }

    @Override
    public boolean tryLock(long timeout) throws Exception {
        String lockType = isRead ? "read-" : "write-";
        currentLock = zk.create(lockPath + "/" + lockType + lockName + "-", "locked".getBytes(),
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        List<String> locks = zk.getChildren(lockPath, false);
        locks.sort(Comparator.naturalOrder());
        return canAcquireLock(locks, timeout);
    }

    private boolean canAcquireLock(List<String> locks, long timeout) throws Exception {
        String nodeName = currentLock.substring(currentLock.lastIndexOf("/") + 1);
        int index = locks.indexOf(nodeName);
        if (isRead) {
            for (int i = 0; i < index; i++) {
                if (locks.get(i).startsWith("write-")) {
                    return watchNode(locks.get(i), timeout);
                }
            }
            return true;
        } else {
            if (index == 0) {
                return true;
            }
            return watchNode(locks.get(index - 1), timeout);
        }
    }

    private boolean watchNode(String prevNode, long timeout) throws Exception {
        CountDownLatch latch = new CountDownLatch(1);
        zk.exists(lockPath + "/" + prevNode, event -> {
            if (event.getType() == Event.EventType.NodeDeleted) {
                latch.countDown();
            }
        });
        return latch.await(timeout, TimeUnit.MILLISECONDS);
    }
}
