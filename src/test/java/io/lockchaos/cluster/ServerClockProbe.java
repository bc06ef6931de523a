package io.lockchaos.cluster;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/** Reads a ZooKeeper server's wall clock from outside: a node's ctime is the server's System.currentTimeMillis. */
public final class ServerClockProbe {
    private ServerClockProbe() {
    }

    /** Creates {@code path} and returns how far ahead of ours the server stamped its ctime, in whole minutes. */
    public static long minutesAhead(ZooKeeper zk, String path) throws Exception {
        Stat st = new Stat();
        zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, st);
        return Math.round((st.getCtime() - System.currentTimeMillis()) / 60_000.0);
    }
}
