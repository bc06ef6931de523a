package io.lockchaos.api;

/**
 * Where a pause hurts a holder most. lockchaos hands one to {@link LockClient#release(DangerPoint)}; a client pause
 * (a GC pause, SIGSTOP) asked for by the nemesis stops the caller inside {@link #reach}.
 */
@FunctionalInterface
public interface DangerPoint {
    /** Stops here while a pause asked for by the nemesis lasts; returns at once otherwise. */
    void reach() throws InterruptedException;
}
