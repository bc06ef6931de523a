package io.lockchaos.cluster;

/** A cluster whose servers' wall clocks can be moved while they run (the monotonic clock stays true). */
public interface ClockShiftable {
    /** The servers' clocks: their library, offset files and offsets. */
    ServerClocks serverClocks();

    /** Sets server {@code node}'s wall clock to run {@code offsetMillis} ahead of the machine's (negative: behind). */
    default void shiftClock(ServerNode node, long offsetMillis) {
        serverClocks().shift(node, offsetMillis);
    }

    /** The offset {@link #shiftClock} last set on {@code node} (0 at start). */
    default long clockOffset(ServerNode node) {
        return serverClocks().offset(node);
    }
}
