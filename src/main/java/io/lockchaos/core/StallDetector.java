package io.lockchaos.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The runner's heartbeat: a thread that sleeps a short period and measures, on the monotonic clock, how long it
 * really slept. A wake-up far later than asked means the whole runner was frozen (SIGSTOP, a paused VM, a long GC
 * pause): its clients' sessions may expire meanwhile, and that is no fault of the lock service. Quiet workers are
 * never a stall: only the heartbeat's own lateness counts, and it does not depend on what the history records.
 */
public final class StallDetector implements AutoCloseable {
    /** How long the heartbeat sleeps between two looks at the clock. */
    public static final long PERIOD_MS = 100;

    /**
     * A frozen span on the detector's clock. It is known to within one period: the freeze began after {@code
     * startNs} (the heartbeat's last wake-up before it) and ended by {@code endNs}.
     */
    public record Stall(long startNs, long endNs) {
        public long durationNs() {
            return endNs - startNs;
        }
    }

    /** Sleeps the heartbeat (a test's sleeper moves a fake clock instead). */
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final LongSupplier clock;
    private final Sleeper sleeper;
    private final long periodMs;
    private final long thresholdNs;
    private final Consumer<Stall> onStall;
    private final List<Stall> stalls = new CopyOnWriteArrayList<>();
    private Thread thread;

    StallDetector(LongSupplier clock, Sleeper sleeper, long periodMs, long thresholdMs, Consumer<Stall> onStall) {
        if (thresholdMs <= periodMs) {
            throw new IllegalArgumentException("a stall threshold of " + thresholdMs + " ms is not above the"
                    + " heartbeat's period of " + periodMs + " ms");
        }
        this.clock = clock;
        this.sleeper = sleeper;
        this.periodMs = periodMs;
        this.thresholdNs = thresholdMs * 1_000_000L;
        this.onStall = onStall;
    }

    /**
     * Starts the heartbeat thread.
     *
     * @param clock nanoseconds, monotonic: the history's clock, so that stalls are placed on it
     * @param thresholdMs a gap between two wake-ups longer than this is a stall
     * @param onStall told of each stall, from the heartbeat thread, as soon as the runner runs again
     */
    public static StallDetector start(LongSupplier clock, long thresholdMs, Consumer<Stall> onStall) {
        StallDetector d = new StallDetector(clock, Thread::sleep, PERIOD_MS, thresholdMs, onStall);
        d.thread = new Thread(d::beatUntilInterrupted, "lockchaos-heartbeat");
        d.thread.setDaemon(true);
        // the workers' threads must not make the heartbeat late on a busy machine and pass for a stall
        d.thread.setPriority(Thread.MAX_PRIORITY);
        d.thread.start();
        return d;
    }

    /** One heartbeat: sleeps one period and returns the stall it woke from, or null when it woke in time. */
    Stall beat() throws InterruptedException {
        long before = clock.getAsLong();
        sleeper.sleep(periodMs);
        long after = clock.getAsLong();
        if (after - before <= thresholdNs) {
            return null;
        }
        Stall s = new Stall(before, after);
        stalls.add(s);
        onStall.accept(s);
        return s;
    }

    private void beatUntilInterrupted() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                beat();
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** The stalls seen so far, in order. */
    public List<Stall> stalls() {
        return List.copyOf(stalls);
    }

    /** Stops the heartbeat and waits for it: no stall is reported after this returns. */
    @Override
    public void close() throws InterruptedException {
        if (thread != null) {
            thread.interrupt();
            thread.join();
        }
    }
}
