package io.lockchaos.client;

import java.time.Duration;

/** One lock recipe used by one process on one session. Implementations need not be thread-safe. */
public interface LockClient extends AutoCloseable {
    /**
     * Tries to acquire within {@code timeout}.
     *
     * @return the grant, or null when the timeout passed without the lock
     * @throws Exception when the outcome is unknown (connection trouble): record it as info
     */
    Grant acquire(Duration timeout) throws Exception;

    /**
     * Releases the lock.
     *
     * @return false when the lock node was already gone (the lock was lost while held)
     */
    boolean release() throws Exception;

    @Override
    void close();
}
