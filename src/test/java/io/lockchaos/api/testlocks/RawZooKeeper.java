package io.lockchaos.api.testlocks;

import io.lockchaos.api.LockContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** The raw ZooKeeper handle the test tree's hand-written locks open, as a user's lock would. */
final class RawZooKeeper {
    private RawZooKeeper() {
    }

    /** A connected handle to the context's servers (through their proxies), reported to the run for the nemesis. */
    static ZooKeeper connect(LockContext ctx) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(ctx.connectString(), (int) ctx.sessionTimeout().toMillis(), e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new IllegalStateException("no connection to " + ctx.connectString());
        }
        ctx.zookeeper(() -> zk);
        return zk;
    }
}
