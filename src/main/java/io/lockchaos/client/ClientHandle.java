package io.lockchaos.client;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.LockClient;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.zookeeper.ZooKeeper;

/**
 * What the nemesis may see and do of one worker: its current process, its current ZooKeeper handle (for session
 * expiry), whether it holds or waits for the lock right now (to pick "the holder" or "a waiter"), and a pause gate at
 * the most dangerous point of its critical section. The worker updates it; the nemesis reads it. Thread-safe.
 */
public final class ClientHandle {
    /** Where a worker is in its cycle. */
    public enum Phase { IDLE, WAITING, HOLDING }

    private final int worker;
    private volatile int process;
    private volatile Phase phase = Phase.IDLE;
    private volatile long phaseSince = System.nanoTime();
    private volatile SessionControl session = SessionControl.NONE;
    private volatile PauseRequest pause;
    private volatile PauseRequest releasePause;
    private volatile PauseRequest commitLoss;
    /** The worker's thread, which an interrupt fault interrupts. */
    private volatile Thread thread;
    /** Set by the nemesis as it interrupts the thread, so that the worker tells its interrupt from the run's end. */
    private boolean interruptPending;
    /** How many releases the worker has completed: a fault may wait for the next one. */
    private volatile long releases;
    /** Whether the worker is inside its acquire call, where an interrupt fault may reach it. */
    private boolean acquiring;
    /** Whether the interrupted worker then releases once, as a {@code finally} block would. */
    private boolean releaseAfterInterrupt;

    public ClientHandle(int worker) {
        this.worker = worker;
        this.process = worker;
    }

    public int worker() {
        return worker;
    }

    public int process() {
        return process;
    }

    public Phase phase() {
        return phase;
    }

    void process(int p) {
        process = p;
    }

    void phase(Phase p) {
        if (p != phase) {
            phaseSince = System.nanoTime();
        }
        phase = p;
    }

    /** The worker runs on the calling thread. */
    void thread(Thread t) {
        thread = t;
    }

    /** The worker enters ({@code true}) or has left its acquire call: only in there may the nemesis interrupt it. */
    synchronized void acquiring(boolean in) {
        acquiring = in;
    }

    /**
     * Interrupts the worker's thread if it is inside its acquire call (atomically with its leaving it): false when it
     * is not, or has no thread yet.
     */
    public synchronized boolean interrupt(boolean thenRelease) {
        if (!acquiring || thread == null) {
            return false;
        }
        interruptPending = true;
        releaseAfterInterrupt = thenRelease;
        thread.interrupt();
        return true;
    }

    /**
     * Whether the nemesis interrupted the worker since the last call; if so, the thread's interrupt status is cleared
     * too (the worker goes on, as an application whose task was cancelled goes on to its next one).
     */
    synchronized boolean takeInterrupt() {
        if (!interruptPending) {
            return false;
        }
        interruptPending = false;
        Thread.interrupted();
        return true;
    }

    /** How many releases the worker has completed. */
    public long releases() {
        return releases;
    }

    void released() {
        releases++; // only the worker writes it
    }

    /** Whether the last interrupt asked the worker to release once after it. */
    synchronized boolean releaseAfterInterrupt() {
        return releaseAfterInterrupt;
    }

    /** When the worker entered its current phase ({@link System#nanoTime()}). */
    public long phaseSince() {
        return phaseSince;
    }

    /** Sets where the worker's current ZooKeeper handle is found (Curator may replace it after an expiry). */
    public void zookeeper(Supplier<ZooKeeper> handle) {
        session = SessionControl.of(handle);
    }

    /** Sets how the worker's current session is reached (in this JVM or in a client agent). */
    public void session(SessionControl s) {
        session = s == null ? SessionControl.NONE : s;
    }

    /** The worker's current session, for the nemesis. */
    public SessionControl session() {
        return session;
    }

    /**
     * Asks the worker to stop the next time it reaches its danger point (after its last check that it holds the lock,
     * before it writes to the protected resource), as a GC pause would. One request may be given to many workers: the
     * first to get there takes it.
     */
    public void requestPause(PauseRequest r) {
        pause = r;
    }

    /** Withdraws a pause the worker has not reached yet. */
    public void cancelPause(PauseRequest r) {
        if (pause == r) {
            pause = null;
        }
    }

    /**
     * Asks the worker to stop the next time it is inside a release at the point its recipe names (see {@link
     * LockClient#release(DangerPoint)}). One request may be given to many workers: the first takes it.
     */
    public void requestReleasePause(PauseRequest r) {
        releasePause = r;
    }

    /** Withdraws a release pause the worker has not reached yet. */
    public void cancelReleasePause(PauseRequest r) {
        if (releasePause == r) {
            releasePause = null;
        }
    }

    /** Called by the worker inside a release: stops here if a release pause was asked for and nobody took it. */
    void releasePoint() throws InterruptedException {
        PauseRequest r = releasePause;
        if (r == null) {
            return;
        }
        releasePause = null;
        if (r.claim()) {
            r.run(this);
        }
    }

    /**
     * Asks the worker to run {@code r} (with no pause) the next time it is about to send the COMMIT of its critical
     * section's transaction on the protected data in a database. One request may be given to many workers: the first
     * takes it.
     */
    public void requestCommitLoss(PauseRequest r) {
        commitLoss = r;
    }

    /** Withdraws a commit request the worker has not reached yet. */
    public void cancelCommitLoss(PauseRequest r) {
        if (commitLoss == r) {
            commitLoss = null;
        }
    }

    /** Called by the worker just before it sends a COMMIT: runs a commit request if one was asked for and is free. */
    void commitPoint() throws InterruptedException {
        PauseRequest r = commitLoss;
        if (r == null) {
            return;
        }
        commitLoss = null;
        if (r.claim()) {
            r.run(this);
        }
    }

    /** Called by the worker at its danger point: stops here if a pause was asked for and nobody took it first. */
    void dangerPoint() throws InterruptedException {
        PauseRequest r = pause;
        if (r == null) {
            return;
        }
        pause = null;
        if (r.claim()) {
            r.run(this);
        }
    }

    /** One requested client pause. */
    public static final class PauseRequest {
        private final long millis;
        private final Consumer<ClientHandle> onPause;
        private final Consumer<ClientHandle> onResume;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch paused = new CountDownLatch(1);
        private final CountDownLatch resumed = new CountDownLatch(1);

        /**
         * A pause of {@code millis}: {@code onPause} runs in the worker's thread as it stops (to freeze its
         * connections too) and {@code onResume} before it goes on.
         */
        public PauseRequest(long millis, Consumer<ClientHandle> onPause, Consumer<ClientHandle> onResume) {
            this.millis = millis;
            this.onPause = onPause;
            this.onResume = onResume;
        }

        /** Takes the request: true for the first caller only (a worker, or the nemesis withdrawing it). */
        public boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        void run(ClientHandle h) throws InterruptedException {
            try {
                onPause.accept(h);
                paused.countDown();
                Thread.sleep(millis);
            } finally {
                onResume.accept(h);
                resumed.countDown();
            }
        }

        /** Waits until a worker has stopped; false when none reached its danger point in time. */
        public boolean awaitPaused(long timeoutMillis) throws InterruptedException {
            return paused.await(timeoutMillis, TimeUnit.MILLISECONDS);
        }

        /** Waits until the paused worker goes on again. */
        public boolean awaitResumed(long timeoutMillis) throws InterruptedException {
            return resumed.await(timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }
}
