package io.lockchaos.fault;

/**
 * A fault at a time in the main phase, for a while.
 *
 * @param atMillis when it starts, in ms after the main phase began
 * @param fault what it does
 * @param durationMillis how long it lasts; 0 for an instantaneous fault
 */
public record FaultEvent(long atMillis, Fault fault, long durationMillis) {
    public FaultEvent {
        if (atMillis < 0 || durationMillis < 0) {
            throw new IllegalArgumentException("times must be >= 0");
        }
    }

    /** The event in timeline syntax: {@code at 5000ms isolate-client holder for 6000ms}. */
    @Override
    public String toString() {
        return "at " + atMillis + "ms " + fault + (fault.kind().instantaneous() ? "" : " for " + durationMillis + "ms");
    }
}
