package io.lockchaos.api.testlocks;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import io.lockchaos.api.TransactionalSet;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * A user's lock in the test tree that keeps the data it protects: one ephemeral node per key on a raw ZooKeeper
 * handle, whose release deletes the node and writes the staged set in one {@code multi}, so the write lands exactly
 * when the unlock does. A {@link TransactionalSet} on something other than a database, driven in client agents.
 */
public final class CommittingLock implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease();
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        ZooKeeper zk = RawZooKeeper.connect(ctx);
        return new Client(zk, ctx.key() + "/holder");
    }

    private static final class Client implements LockClient, TransactionalSet {
        private final ZooKeeper zk;
        private final String node;
        private String stagedName;
        private byte[] staged;

        Client(ZooKeeper zk, String node) {
            this.zk = zk;
            this.node = node;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                try {
                    zk.create(node, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
                    Stat s = zk.exists(node, false);
                    return Grant.of(node, s.getCzxid(), zk.getSessionId());
                } catch (KeeperException.NodeExistsException e) {
                    if (System.nanoTime() > deadline) {
                        return null;
                    }
                    Thread.sleep(10);
                }
            }
        }

        @Override
        public boolean release() throws Exception {
            List<Op> ops = new ArrayList<>();
            ops.add(Op.delete(node, -1));
            if (staged != null) {
                ops.add(zk.exists(stagedName, false) == null
                        ? Op.create(stagedName, staged, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT)
                        : Op.setData(stagedName, staged, -1));
            }
            staged = null;
            try {
                zk.multi(ops);
                return true;
            } catch (KeeperException.NoNodeException e) {
                return false; // the node went with the session: neither the unlock nor the write happened
            }
        }

        @Override
        public List<Long> readSet(String name) throws Exception {
            List<Long> out = new ArrayList<>();
            try {
                String text = new String(zk.getData(name, false, null), StandardCharsets.UTF_8);
                for (String e : text.split(",")) {
                    if (!e.isEmpty()) {
                        out.add(Long.parseLong(e));
                    }
                }
            } catch (KeeperException.NoNodeException e) {
                // nothing committed yet
            }
            return out;
        }

        @Override
        public void writeSet(String name, List<Long> elements) {
            stagedName = name;
            staged = String.join(",", elements.stream().map(String::valueOf).toList())
                    .getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void close() {
            try {
                zk.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
