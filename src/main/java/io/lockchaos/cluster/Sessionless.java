package io.lockchaos.cluster;

/**
 * A cluster whose clients hold no session that the servers time out (Redis): a client paused like a GC pause keeps
 * its TCP connections, as the kernel keeps them through a real pause, and nothing is gained by silencing them.
 */
public interface Sessionless {
}
