package io.lockchaos.zookeeper;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Version;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Raw ZooKeeper handles, and which ZooKeeper release is lockchaos' own. */
public final class ZooKeepers {
    /** The servers run the ZooKeeper lockchaos is built with ({@code zookeeper}'s default). */
    public static final String LINKED = "linked";
    /** The version of {@link #LINKED}. */
    public static final String LINKED_VERSION = Version.getVersion();

    private ZooKeepers() {
    }

    /** Whether {@code version} (a {@code zookeeper} value) is the release lockchaos is built with. */
    public static boolean linked(String version) {
        return version == null || version.equals(LINKED) || version.equals(LINKED_VERSION);
    }

    /**
     * Opens a handle and waits until it is connected.
     *
     * @throws IOException when it does not connect within {@code wait} (the handle is closed)
     */
    public static ZooKeeper connect(String connectString, int sessionTimeoutMillis, Duration wait)
            throws IOException, InterruptedException {
        CountDownLatch up = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, sessionTimeoutMillis, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                up.countDown();
            }
        });
        if (!up.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IOException("no connection to " + connectString + " within " + wait.toMillis() + " ms");
        }
        return zk;
    }
}
