package io.lockchaos.api.testlocks;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * A user's hand-written lease, the way it is often written: one node per key holding its owner and an expiry in wall
 * clock milliseconds; a client takes it when the expiry has passed by its own wall clock, and the holder believes it
 * holds it until its own wall clock passes the expiry. A holder whose clock jumps back keeps believing. {@link
 * MonotonicLease} is the same lease with no wall clock in it: a taker waits until it has seen the same version of the
 * node for the lease and a tenth on its monotonic clock, and the holder counts its lease on its monotonic clock from
 * before its write.
 */
public class WallClockLease implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease().withLease();
    }

    /** Whether the holder judges its lease on its monotonic clock rather than its wall clock. */
    protected boolean monotonic() {
        return false;
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        ZooKeeper zk = RawZooKeeper.connect(ctx);
        return new Client(zk, ctx.key() + "/lease", ctx.lease().toMillis(), ctx.process(), monotonic());
    }

    private static final class Client implements LockClient {
        private final ZooKeeper zk;
        private final String node;
        private final long leaseMillis;
        private final String owner;
        private final boolean monotonic;
        private volatile long expiresWallMillis;
        private volatile long expiresNanos;
        private int version = -1;
        /** What a monotonic taker last saw of the node (its version) and since when, on its monotonic clock. */
        private int seenVersion = -1;
        private long seenSince;

        Client(ZooKeeper zk, String node, long leaseMillis, int process, boolean monotonic) {
            this.zk = zk;
            this.node = node;
            this.leaseMillis = leaseMillis;
            this.owner = process + "-" + System.nanoTime();
            this.monotonic = monotonic;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long sent = System.nanoTime();
                long expires = System.currentTimeMillis() + leaseMillis;
                byte[] mine = (owner + " " + expires).getBytes(StandardCharsets.UTF_8);
                Stat st = new Stat();
                try {
                    byte[] d = zk.getData(node, false, st);
                    long theirs = Long.parseLong(new String(d, StandardCharsets.UTF_8).split(" ")[1]);
                    if (monotonic ? theirs == 0 || expiredByWatching(st.getVersion())
                            : System.currentTimeMillis() >= theirs) {
                        version = zk.setData(node, mine, st.getVersion()).getVersion();
                        return granted(expires, sent);
                    }
                } catch (KeeperException.NoNodeException e) {
                    try {
                        zk.create(node, mine, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                        version = 0;
                        return granted(expires, sent);
                    } catch (KeeperException.NodeExistsException raced) {
                        // someone else took it first: look again
                    }
                } catch (KeeperException.BadVersionException raced) {
                    // someone else took it first: look again
                }
                if (System.nanoTime() > deadline) {
                    return null;
                }
                Thread.sleep(10);
            }
        }

        /** Whether the node has stayed at {@code v} for the lease and a tenth, on this client's monotonic clock. */
        private boolean expiredByWatching(int v) {
            long now = System.nanoTime();
            if (v != seenVersion) {
                seenVersion = v;
                seenSince = now;
                return false;
            }
            return now - seenSince >= leaseMillis * 1_100_000L;
        }

        private Grant granted(long expires, long sent) {
            seenVersion = -1;
            expiresWallMillis = expires;
            expiresNanos = sent + leaseMillis * 1_000_000L;
            return new Grant(node, -1, zk.getSessionId(), zk.getSessionId(), -1, -1,
                    Map.of("lease_ms", leaseMillis, "expires_at_ms", expires));
        }

        @Override
        public boolean stillHolds() {
            return monotonic ? System.nanoTime() - expiresNanos < 0
                    : System.currentTimeMillis() < expiresWallMillis;
        }

        @Override
        public long validUntilNanos() {
            return monotonic ? expiresNanos
                    : System.nanoTime() + (expiresWallMillis - System.currentTimeMillis()) * 1_000_000L;
        }

        @Override
        public boolean release() throws Exception {
            try {
                byte[] d = zk.getData(node, false, null);
                if (!new String(d, StandardCharsets.UTF_8).startsWith(owner + " ")) {
                    return false; // taken over: the lease was no longer ours
                }
                // expire it rather than delete it: a release must not free a lease someone took meanwhile
                zk.setData(node, (owner + " 0").getBytes(StandardCharsets.UTF_8), version);
                return true;
            } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
                return false;
            }
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
