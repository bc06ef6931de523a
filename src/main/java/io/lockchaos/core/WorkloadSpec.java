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
    public WorkloadSpec(int keys, long timeSeconds, long warmupSeconds, long holdMillis, long holdMaxMillis,
                        long acquireTimeoutMillis, int tryAcquirePct, int readPct, int rate) {
        this(keys, timeSeconds, warmupSeconds, holdMillis, holdMaxMillis, acquireTimeoutMillis, tryAcquirePct, readPct,
                rate, 0);
    }
}
