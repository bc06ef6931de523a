package io.lockchaos.client;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import java.time.Duration;

/** A lock client that, once closed, also closes what it was opened on (its session): what a factory returns. */
final class Closing implements LockClient {
    private final LockClient lock;
    private final AutoCloseable session;

    Closing(LockClient lock, AutoCloseable session) {
        this.lock = lock;
        this.session = session;
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        return lock.acquire(timeout);
    }

    @Override
    public boolean release() throws Exception {
        return lock.release();
    }

    @Override
    public boolean release(DangerPoint danger) throws Exception {
        return lock.release(danger);
    }

    @Override
    public boolean stillHolds() {
        return lock.stillHolds();
    }

    @Override
    public long validUntilNanos() {
        return lock.validUntilNanos();
    }

    @Override
    public LockClient readSide() {
        return lock.readSide();
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
