package io.lockchaos.client;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;

/**
 * Makes a ZooKeeper client believe its session expired while the server keeps it (the {@code expire-client-side}
 * fault), with ZooKeeper's own test hook made safe to use on a live Curator client.
 *
 * <p>The hook ({@code ZooKeeperTestable.injectSessionExpiration}, 3.6 to 3.9) queues the Expired event first and marks
 * the handle closed after. Curator answers Expired on the client's event thread by closing the old handle; when that
 * thread runs before the hook has marked the handle closed, the close finds it alive and sends closeSession, and the
 * server ends the session at once: the fault then is a server-side expiry, while the history says the server kept the
 * session. On a loaded machine this happened (a server log's "closeSession" 3 ms after the injection, and
 * CURATOR-604's double grant did not follow). So the event thread is first parked in a callback of our own, the hook
 * runs, and only then is the thread let go: Curator sees Expired on a handle already closed, and closes nothing.
 */
public final class ClientSideExpiry {
    /** How long to wait for the event thread to take the parking callback (it needs the server's answer to a sync). */
    private static final long PARK_WAIT_MILLIS = 2000;

    private ClientSideExpiry() {
    }

    /**
     * Injects the client-side expiry into {@code zk}.
     *
     * @return whether the event thread was parked meanwhile; false when the client could not get an answer from the
     *     server in time (disconnected), in which case the hook ran anyway: a close from a disconnected client does not
     *     reach the server either
     */
    public static boolean inject(ZooKeeper zk) throws InterruptedException {
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        // callbacks of asynchronous calls run on the event thread, in order with watcher events
        zk.sync("/", (rc, path, ctx) -> {
            parked.countDown();
            try {
                done.await(PARK_WAIT_MILLIS * 5, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                // not ours to keep: an interrupted event thread would end at its next take() and the client would get
                // no more events; just let the thread go on
            }
        }, null);
        try {
            boolean held = parked.await(PARK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            zk.getTestable().injectSessionExpiration();
            return held;
        } finally {
            // also when this thread was interrupted while waiting: a late answer must not hold the event thread
            done.countDown();
        }
    }
}
