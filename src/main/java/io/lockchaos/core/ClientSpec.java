package io.lockchaos.core;

import io.lockchaos.client.ClientMode;

/**
 * The clients a test runs: one per worker, each on its own session.
 *
 * @param count concurrent workers
 * @param sessionTimeoutMillis the session timeout each client asks for
 * @param mode how holders react to connection states
 * @param reentryDepth how many times a holder acquires per hold (more than 1 re-enters)
 * @param curator {@link #LINKED} for the Curator linked into lockchaos (clients in the runner's JVM), else the version
 *     whose jars client agents run ({@code curator})
 */
public record ClientSpec(int count, long sessionTimeoutMillis, ClientMode mode, int reentryDepth, String curator) {
    /** The ranges of these keys, each refusal naming its key. */
    public ClientSpec {
        if (reentryDepth < 1 || reentryDepth > 100) {
            throw new IllegalArgumentException("reentry_depth: expected 1 to 100, got " + reentryDepth);
        }
        if (count < 1 || count > 2000) {
            throw new IllegalArgumentException("clients: expected 1 to 2000, got " + count);
        }
    }

    /** The Curator lockchaos is built with, run in-process. */
    public static final String LINKED = "linked";

    /** The version of the linked Curator. */
    public static final String LINKED_VERSION = "5.9.0";

    public ClientSpec(int count, long sessionTimeoutMillis, ClientMode mode, int reentryDepth) {
        this(count, sessionTimeoutMillis, mode, reentryDepth, LINKED);
    }

    /** Whether the clients run in client agents (on {@link #curator}) instead of the runner's JVM. */
    public boolean agents() {
        return !LINKED.equals(curator);
    }

    /** The Curator version the clients run. */
    public String curatorVersion() {
        return agents() ? curator : LINKED_VERSION;
    }

    /** The most clients that get a client agent each when the schedule pauses clients. */
    public static final int MAX_DEDICATED_AGENTS = 16;

    /**
     * How many client agents serve the clients. One, whatever their number: measured with 100 clients on 2 cores,
     * four agents cost half the throughput (each JVM compiles and collects for itself), one agent a median 7% with
     * ten keys and nothing measurable with one. But when the schedule pauses clients and there are at most {@link
     * #MAX_DEDICATED_AGENTS}, each client gets an agent of its own, so that a pause stops the client's whole process
     * (its Curator threads and heartbeats too).
     */
    public int agentCount(boolean pausesClients) {
        return pausesClients && count <= MAX_DEDICATED_AGENTS ? count : 1;
    }
}
