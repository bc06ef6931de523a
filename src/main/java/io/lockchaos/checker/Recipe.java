package io.lockchaos.checker;

/**
 * What the lock under test promises, which decides what the checkers accept. This is data only: the names users type
 * and the list of them live in {@code client.LockRecipe}, whose every recipe states its promises here.
 *
 * @param name the recipe's name, for messages ({@code mutex}, {@code semaphore:N}, {@code redlock}...)
 * @param capacity how many holders may hold at once (1 for mutexes; readers of a rw lock are not counted)
 * @param reentrant whether the holding process may acquire again and must release as often
 * @param ownerRelease whether only the holding process may release (Curator's InterProcessMutex)
 * @param fifo whether grants must follow queue order
 * @param readWrite whether acquires carry a read or write mode
 * @param counted whether holders are leases counted one by one against the capacity (a semaphore, even of one)
 * @param leased whether a hold is a lease with a validity rather than a session the client is told about (Redis)
 */
public record Recipe(String name, int capacity, boolean reentrant, boolean ownerRelease, boolean fifo,
                     boolean readWrite, boolean counted, boolean leased) {
    /** InterProcessSemaphoreMutex: exclusive, not reentrant, any thread may release; leases are not queued FIFO. */
    public static final Recipe MUTEX = new Recipe("mutex", 1, false, false, false, false, false, false);
    /** InterProcessMutex: exclusive, reentrant, owner-only release, FIFO by sequence number. */
    public static final Recipe REENTRANT_MUTEX = new Recipe("reentrant-mutex", 1, true, true, true, false, false,
            false);
    /** InterProcessReadWriteLock: reentrant, owner-only, FIFO with readers passing readers. */
    public static final Recipe READ_WRITE = new Recipe("rw", 1, true, true, true, true, false, false);
    /** InterProcessMultiLock over InterProcessMutexes: each key behaves as a reentrant mutex. */
    public static final Recipe MULTI = new Recipe("multi", 1, true, true, false, false, false, false);

    public Recipe {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
    }

    /** InterProcessSemaphoreV2 with {@code permits} leases: any thread may release, leases are counted one by one. */
    public static Recipe semaphore(int permits) {
        return new Recipe("semaphore:" + permits, permits, false, false, false, false, true, false);
    }

    /** A lock held as a lease on Redis: exclusive, not reentrant, released by its value's owner only, no queue. */
    public static Recipe redisLease(String name) {
        return new Recipe(name, 1, false, true, false, false, false, true);
    }

    /** An exclusive (or read/write) lock with owner-only release and queue order, not reentrant. */
    public static Recipe queued(String name, boolean readWrite) {
        return new Recipe(name, 1, false, true, true, readWrite, false, false);
    }

    public boolean isSemaphore() {
        return counted;
    }
}
