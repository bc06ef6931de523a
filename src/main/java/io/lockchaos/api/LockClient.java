package io.lockchaos.api;

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

    /**
     * Releases the lock, passing {@code danger} where a pause hurts this recipe's release most: by default before it
     * sends anything; a release that reads and then deletes (the tutorial's RedLock) passes it in between.
     */
    default boolean release(DangerPoint danger) throws Exception {
        danger.reach();
        return release();
    }

    /** What a release found: the lock still held, already gone, or not said. */
    enum Release {
        /** The lock was still held, and is released. */
        HELD,
        /** The lock was already gone (lost while held): the history ends the hold as lost. */
        GONE,
        /**
         * Released, but whether the lock was still held the library does not say (an unlock that returns nothing, as
         * ShedLock's): the history records the release as done without claiming either.
         */
        UNKNOWN;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The release with this wire name, or null. */
        public static Release parse(String s) {
            for (Release r : values()) {
                if (r.wireName().equals(s)) {
                    return r;
                }
            }
            return null;
        }
    }

    /**
     * Releases the lock as {@link #release(DangerPoint)} does and says what it found; what the worker calls. By default
     * {@code HELD} or {@code GONE} from {@link #release(DangerPoint)}: a lock whose library's unlock says nothing
     * overrides this to return {@code UNKNOWN} (its {@link #release()} is then not called by the run).
     */
    default Release releaseOutcome(DangerPoint danger) throws Exception {
        return release(danger) ? Release.HELD : Release.GONE;
    }

    /**
     * Whether the client may still act as the holder by what it knows itself: a lock with a lease (Redis) stops once
     * its validity has run out; a ZooKeeper lock holds until it is told otherwise (its connection states). Unlike the
     * rest of the client, this and {@link #validUntilNanos} are called from other threads while an acquire or a
     * release runs, every few milliseconds: they must be thread-safe and answer at once.
     */
    default boolean stillHolds() {
        return true;
    }

    /** When {@link #stillHolds} turns false by itself ({@link System#nanoTime()}), or Long.MAX_VALUE for never. */
    default long validUntilNanos() {
        return Long.MAX_VALUE;
    }

    /**
     * The read lock of the same read/write lock this client writes with, so that a writer may downgrade (take the read
     * lock while it holds the write lock, then release the write lock); null for any other lock. It shares this
     * client's session and is closed with it.
     */
    default LockClient readSide() {
        return null;
    }

    /**
     * Where the protected set is kept when this lock keeps it (see {@link TransactionalSet}): by default this client
     * when it implements that interface, else null (the run keeps the set in its own memory). A client that wraps
     * another passes the other's on.
     */
    default TransactionalSet transactionalSet() {
        return this instanceof TransactionalSet t ? t : null;
    }

    @Override
    void close();
}
