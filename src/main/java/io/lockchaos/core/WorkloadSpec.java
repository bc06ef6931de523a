package io.lockchaos.core;

/**
 * What the workers do with the lock. Built only from a workload's keys ({@link TestSpecs}), never positionally.
 *
 * @param keys lock keys (a multi-lock spans all of them)
 * @param timeSeconds how long the main phase runs
 * @param warmupSeconds a warm-up phase before the main one: the same workload, no faults
 * @param holdMillis how long a holder holds
 * @param holdMaxMillis holds are drawn uniformly from [holdMillis, holdMaxMillis]; 0 means exactly holdMillis
 * @param acquireTimeoutMillis how long an acquire waits
 * @param tryAcquirePct the percentage of acquires that are single tries (timeout 0)
 * @param readPct for read/write locks, the percentage of workers that read
 * @param rate cycles per second per worker (a random stagger with that mean); 0 for as fast as possible
 * @param downgradePct for read/write locks, the percentage of write holds that end in a downgrade: the writer takes
 *     the read lock while it holds the write lock, releases the write lock, holds the read lock, then releases it
 */
public record WorkloadSpec(int keys, long timeSeconds, long warmupSeconds, long holdMillis, long holdMaxMillis,
                           long acquireTimeoutMillis, int tryAcquirePct, int readPct, int rate, int downgradePct) {
    /** The ranges of these keys, each refusal naming its key (how they fit the recipe is TestSpecs' to check). */
    public WorkloadSpec {
        if (keys < 1) {
            throw new IllegalArgumentException("keys: expected at least 1, got " + keys);
        }
        if (timeSeconds < 1) {
            throw new IllegalArgumentException("time_s: must be at least 1, got " + timeSeconds);
        }
        if (holdMillis < 0 || acquireTimeoutMillis < 1) {
            throw new IllegalArgumentException("hold_ms must be >= 0 and acquire_timeout_ms >= 1");
        }
        if (warmupSeconds < 0 || warmupSeconds > 3600) {
            throw new IllegalArgumentException("warmup_s: expected 0 to 3600, got " + warmupSeconds);
        }
        if (holdMaxMillis != 0 && holdMaxMillis < holdMillis) {
            throw new IllegalArgumentException("hold_max_ms: must be 0 or at least hold_ms (" + holdMillis + "), got "
                    + holdMaxMillis);
        }
        percent("try_acquire_pct", tryAcquirePct);
        percent("read_pct", readPct);
        percent("downgrade_pct", downgradePct);
        // pauses are whole milliseconds: above 500/s the mean pause of a stagger would be off by more than 25%
        if (rate < 0 || rate > 500) {
            throw new IllegalArgumentException("rate: expected 0 (unlimited) to 500 cycles/s per client, got " + rate);
        }
    }

    private static void percent(String key, int pct) {
        if (pct < 0 || pct > 100) {
            throw new IllegalArgumentException(key + ": expected 0 to 100, got " + pct);
        }
    }

    public WorkloadSpec(int keys, long timeSeconds, long warmupSeconds, long holdMillis, long holdMaxMillis,
                        long acquireTimeoutMillis, int tryAcquirePct, int readPct, int rate) {
        this(keys, timeSeconds, warmupSeconds, holdMillis, holdMaxMillis, acquireTimeoutMillis, tryAcquirePct, readPct,
                rate, 0);
    }
}
