package io.lockchaos.cluster;

/**
 * A cluster whose clients may hold no session the servers time out (Redis). A client paused like a GC pause keeps its
 * TCP connections, as the kernel keeps them through a real pause, so nothing is gained by silencing them, unless the
 * client renews a lease in the background (Redisson's watchdog): a real pause stops that thread too, and silencing
 * the paused client's connections is how a pause of one worker thread stops its renewals.
 */
public interface Sessionless {
    /** Whether this run's clients keep nothing alive in the background. */
    boolean sessionless();
}
