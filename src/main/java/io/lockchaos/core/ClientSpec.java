package io.lockchaos.core;

import io.lockchaos.client.ClientMode;

/**
 * The clients a test runs: one per worker, each on its own session.
 *
 * @param count concurrent workers
 * @param sessionTimeoutMillis the session timeout each client asks for
 * @param mode how holders react to connection states
 * @param reentryDepth how many times a holder acquires per hold (more than 1 re-enters)
 */
public record ClientSpec(int count, long sessionTimeoutMillis, ClientMode mode, int reentryDepth) {
}
