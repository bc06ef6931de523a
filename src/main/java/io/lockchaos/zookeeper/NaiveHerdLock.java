package io.lockchaos.zookeeper;

import io.lockchaos.api.Grant;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The "herd" variant of the tutorial's exclusive lock: every waiter watches the same node, the current holder, so each
 * release wakes all of them and all but one go back to sleep. It re-checks after every wake-up and deletes its node
 * on timeout, so it is correct; what it shows is the cost: each grant records how many watch notifications its
 * acquire received. With {@code watchPredecessor} the same code watches the node just before its own instead, the
 * fix the tutorial recommends, so the two can be compared.
 */
public final class NaiveHerdLock extends NaiveLock {
    private final String lockPath;
    private final String lockName;
    private final boolean watchPredecessor;

    public NaiveHerdLock(ZooKeeper zk, String lockPath, String lockName, boolean watchPredecessor) {
        super(zk);
        this.lockPath = lockPath;
        this.lockName = lockName;
        this.watchPredecessor = watchPredecessor;
    }

    private long notifications;

    @Override
    boolean tryLock(long timeout) throws Exception {
        notifications = 0;
        currentLock = zk.create(lockPath + "/" + lockName + "-", "locked".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL_SEQUENTIAL);
        String me = currentLock.substring(currentLock.lastIndexOf('/') + 1);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        AtomicLong wakeups = new AtomicLong();
        while (true) {
            List<String> locks = zk.getChildren(lockPath, false);
            locks.sort(Comparator.naturalOrder());
            if (locks.get(0).equals(me)) {
                notifications = wakeups.get();
                return true;
            }
            CountDownLatch latch = new CountDownLatch(1);
            String watched = watchPredecessor ? locks.get(locks.indexOf(me) - 1) : locks.get(0);
            Stat s = zk.exists(lockPath + "/" + watched, event -> {
                wakeups.incrementAndGet();
                latch.countDown();
            });
            long left = deadline - System.nanoTime();
            if (s != null && (left <= 0 || !latch.await(left, TimeUnit.NANOSECONDS))) {
                try {
                    zk.delete(currentLock, -1); // unlike the tutorial's lock, give up the place in the queue
                } catch (KeeperException.NoNodeException e) {
                    // already gone with the session
                }
                currentLock = null;
                return false;
            }
        }
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        Grant g = super.acquire(timeout);
        return g == null ? null : new Grant(g.node(), g.czxid(), g.session(), g.owner(), g.seq(), notifications);
    }
}
