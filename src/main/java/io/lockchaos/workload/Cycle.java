package io.lockchaos.workload;

/**
 * One lock cycle a worker performs: wait {@code pauseMillis}, acquire (waiting at most {@code timeoutMillis}; 0 is
 * a single try that never waits), acquire {@code depth - 1} more times while holding (re-entry), hold for {@code
 * holdMillis}, and release as often as it got the lock.
 *
 * @param pauseMillis idle time before the acquire (stagger, rate limit)
 * @param timeoutMillis how long the acquire may wait; 0 for a try-acquire
 * @param holdMillis how long the holder holds
 * @param depth acquires per hold, at least 1
 */
public record Cycle(long pauseMillis, long timeoutMillis, long holdMillis, int depth) {
    public Cycle {
        if (pauseMillis < 0 || timeoutMillis < 0 || holdMillis < 0) {
            throw new IllegalArgumentException("pause, timeout and hold must be >= 0: " + pauseMillis + ", "
                    + timeoutMillis + ", " + holdMillis);
        }
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be at least 1, got " + depth);
        }
    }

    /** An acquire waiting up to {@code timeoutMillis}, a hold of {@code holdMillis}, no pause, no re-entry. */
    public static Cycle of(long timeoutMillis, long holdMillis) {
        return new Cycle(0, timeoutMillis, holdMillis, 1);
    }

    /** Whether the acquire is a single try that does not wait. */
    public boolean isTry() {
        return timeoutMillis == 0;
    }

    public Cycle withPause(long millis) {
        return new Cycle(millis, timeoutMillis, holdMillis, depth);
    }

    public Cycle withTimeout(long millis) {
        return new Cycle(pauseMillis, millis, holdMillis, depth);
    }

    public Cycle withHold(long millis) {
        return new Cycle(pauseMillis, timeoutMillis, millis, depth);
    }

    public Cycle withDepth(int k) {
        return new Cycle(pauseMillis, timeoutMillis, holdMillis, k);
    }
}
