package io.lockchaos.cluster;

/** A cluster whose servers' wall clocks can be moved while they run (the monotonic clock stays true). */
public interface ClockShiftable {
    /** Sets server {@code node}'s wall clock to run {@code offsetMillis} ahead of the machine's (negative: behind). */
    void shiftClock(ZkNode node, long offsetMillis);

    /** The offset {@link #shiftClock} last set on {@code node} (0 at start). */
    long clockOffset(ZkNode node);
}
