package io.lockchaos.api.testlocks;

/** {@link WallClockLease} whose holder judges its lease on its monotonic clock: a jump of its wall clock is nothing. */
public final class MonotonicLease extends WallClockLease {
    @Override
    protected boolean monotonic() {
        return true;
    }
}
