package io.lockchaos.zookeeper;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.data.Stat;

/**
 * Curator's {@link LeaderLatch} as a lock: leadership is the hold. An acquire joins the election (a new latch) unless
 * the client still stands in it, and waits for leadership; one that times out leaves the election, as a failed
 * acquire leaves nothing behind. A release closes the latch ({@code SILENT}: no callback). When the latch itself
 * takes leadership away ({@code notLeader}: SUSPENDED or LOST under Curator's standard error policy) the client says
 * so ({@link LockContext#revoked}) and stays a candidate, as an application's latch does: the latch re-joins by
 * itself after a reconnection, which is where CURATOR-696 lives.
 *
 * <p>A grant records the latch's node and its ephemeral owner (read right after the grant): a latch that took
 * leadership with the node of a session already gone (CURATOR-696) shows a foreign owner.
 */
final class CuratorLeaderLatch implements LockClient {
    private final CuratorFramework client;
    private final String path;
    private final LockContext ctx;
    /** The latch the client stands with, or null while it is no candidate. */
    private volatile LeaderLatch latch;
    /** Whether the worker was told of the current term (an acquire returned it) and the term goes on. */
    private volatile boolean granted;
    /** How many terms the latch has ended by itself ({@code notLeader}). */
    private volatile long revocations;

    CuratorLeaderLatch(CuratorFramework client, String path, LockContext ctx) {
        this.client = client;
        this.path = path;
        this.ctx = ctx;
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        LeaderLatch l = latch;
        if (l == null) {
            LeaderLatch fresh = new LeaderLatch(client, path, "process-" + ctx.process());
            fresh.addListener(new LeaderLatchListener() {
                @Override
                public void isLeader() {
                }

                @Override
                public void notLeader() {
                    // the latch set hasLeadership false before it called this: stillHolds already answers false
                    granted = false;
                    revocations++;
                    if (latch == fresh) {
                        ctx.revoked("notLeader");
                    }
                }
            });
            latch = fresh;
            fresh.start();
            l = fresh;
        } else if (granted && l.hasLeadership()) {
            return null; // a leader asking again: leadership is no reentrant lock, the second ask is refused
        }
        long before = revocations;
        if (!l.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            withdraw();
            return null;
        }
        String node = l.getOurPath();
        long session = CuratorLockFactory.sessionOf(client);
        long owner = 0;
        if (node != null) {
            try {
                Stat stat = client.checkExists().forPath(node);
                owner = stat == null ? 0 : stat.getEphemeralOwner();
            } catch (Exception e) {
                // unreachable right after the grant: the owner stays unknown rather than the acquire indeterminate
            }
        }
        // after a term taken away during this acquire, the next acquire is not refused as a second ask
        granted = revocations == before;
        return new Grant(node == null ? path : node, -1, session, owner, Grant.sequenceOf(node == null ? "" : node),
                -1, Map.of(), Grant.Kind.SESSION);
    }

    @Override
    public boolean release() throws Exception {
        LeaderLatch l = latch;
        boolean held = l != null && l.hasLeadership();
        withdraw();
        return held;
    }

    /** Leaves the election: the latch is closed without a callback and its node deleted in the background. */
    private void withdraw() throws IOException {
        LeaderLatch l = latch;
        latch = null;
        granted = false;
        if (l != null && l.getState() == LeaderLatch.State.STARTED) {
            l.close(LeaderLatch.CloseMode.SILENT);
        }
    }

    @Override
    public boolean stillHolds() {
        LeaderLatch l = latch;
        return l != null && l.hasLeadership();
    }

    @Override
    public void close() {
        try {
            withdraw();
        } catch (IOException | RuntimeException e) {
            // the session closes with the client: its node goes with it
        }
    }
}
