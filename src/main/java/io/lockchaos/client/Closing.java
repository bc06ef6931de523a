package io.lockchaos.client;

import io.lockchaos.api.LockClient;

/** A lock client that, once closed, also closes what it was opened on (its session): what a factory returns. */
public final class Closing extends ForwardingLockClient {
    private final AutoCloseable session;

    public Closing(LockClient lock, AutoCloseable session) {
        super(lock);
        this.session = session;
    }

    @Override
    public void close() {
        try {
            lock.close();
        } finally {
            try {
                session.close();
            } catch (Exception e) {
                // closing is best effort: the servers go at the end of the run anyway
            }
        }
    }
}
