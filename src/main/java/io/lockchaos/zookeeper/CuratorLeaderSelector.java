package io.lockchaos.zookeeper;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderSelector;
import org.apache.curator.framework.recipes.leader.LeaderSelectorListenerAdapter;

/**
 * Curator's {@link LeaderSelector} as a lock: the hold is {@code takeLeadership} running, as an application's
 * leadership is. An acquire queues the selector (starting it the first time, {@code requeue} after) and waits until
 * {@code takeLeadership} is entered; one that times out closes the selector, the only way out of its queue (the next
 * acquire makes another). A release lets {@code takeLeadership} return. The listener is Curator's {@link
 * LeaderSelectorListenerAdapter}, which cancels leadership on SUSPENDED and LOST by interrupting {@code
 * takeLeadership}: the client then says so ({@link LockContext#revoked}).
 */
final class CuratorLeaderSelector implements LockClient {
    private final CuratorFramework client;
    private final String path;
    private final LockContext ctx;
    private volatile Candidate candidate;

    CuratorLeaderSelector(CuratorFramework client, String path, LockContext ctx) {
        this.client = client;
        this.path = path;
        this.ctx = ctx;
    }

    /** One selector and what its {@code takeLeadership} shares with the worker. */
    private final class Candidate extends LeaderSelectorListenerAdapter {
        final LeaderSelector selector = new LeaderSelector(client, path, this);
        /** A permit per entry into {@code takeLeadership}. */
        final Semaphore terms = new Semaphore(0);
        volatile CountDownLatch giveUp;
        /** Counted down when the current term's {@code takeLeadership} returns. */
        volatile CountDownLatch ended = new CountDownLatch(0);
        volatile boolean leading;
        /** Set when the client ends a term itself (until the next begins): an interruption then is no revocation. */
        volatile boolean leaving;

        @Override
        public void takeLeadership(CuratorFramework c) throws Exception {
            CountDownLatch done = new CountDownLatch(1);
            CountDownLatch over = new CountDownLatch(1);
            giveUp = done;
            ended = over;
            leaving = false;
            leading = true;
            terms.release();
            try {
                done.await();
            } catch (InterruptedException e) {
                leading = false; // before the revocation is told: stillHolds answers false by then
                if (!leaving) {
                    ctx.revoked("takeLeadership interrupted");
                }
                throw e;
            } finally {
                leading = false;
                over.countDown();
            }
        }
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        if (candidate != null && candidate.leading && !candidate.leaving) {
            return null; // a leader asking again: leadership is no reentrant lock, the second ask is refused
        }
        if (candidate == null) {
            candidate = new Candidate();
            candidate.selector.start();
        } else {
            candidate.selector.requeue(); // false when still queued (after a revocation it is not)
        }
        Candidate c = candidate;
        if (!c.terms.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            withdraw();
            return null;
        }
        return new Grant(path, -1, CuratorLockFactory.sessionOf(client), 0, -1, -1, Map.of(), Grant.Kind.SESSION);
    }

    @Override
    public boolean release() throws InterruptedException {
        Candidate c = candidate;
        if (c == null) {
            return false;
        }
        boolean held = c.leading;
        c.leaving = true;
        CountDownLatch done = c.giveUp;
        if (done != null) {
            done.countDown();
        }
        // the term is over when takeLeadership has returned, as an application's leadership is
        if (!c.ended.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("takeLeadership did not return within 10 s of being told to");
        }
        return held;
    }

    /** Leaves the queue: the selector is closed (a term it is in is interrupted, told as no revocation). */
    private void withdraw() {
        Candidate c = candidate;
        candidate = null;
        if (c != null) {
            c.leaving = true;
            c.selector.close();
        }
    }

    @Override
    public boolean stillHolds() {
        Candidate c = candidate;
        return c != null && c.leading;
    }

    @Override
    public void close() {
        try {
            withdraw();
        } catch (RuntimeException e) {
            // the session closes with the client: its node goes with it
        }
    }
}
