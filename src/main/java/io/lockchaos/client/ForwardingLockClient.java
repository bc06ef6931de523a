package io.lockchaos.client;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.TransactionalSet;
import java.time.Duration;

/** A lock client that passes everything to another; a subclass changes what it must (its close, typically). */
public abstract class ForwardingLockClient implements LockClient {
    protected final LockClient lock;

    protected ForwardingLockClient(LockClient lock) {
        this.lock = lock;
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
    public Release releaseOutcome(DangerPoint danger) throws Exception {
        return lock.releaseOutcome(danger);
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
    public TransactionalSet transactionalSet() {
        return lock.transactionalSet();
    }
}
