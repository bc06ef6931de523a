package io.lockchaos.checker;

import io.lockchaos.api.Promises;

/**
 * The lock under test as the checkers know it: its name, for messages, and what it promises, which decides what they
 * accept. The promises are the public API's {@link Promises}, the one type that says them (a user's factory returns
 * one; the built-in recipes state theirs here, and {@code client.LockRecipe} lists the recipes).
 *
 * @param name the recipe's name, for messages ({@code mutex}, {@code semaphore:N}, {@code redlock}...)
 * @param promises what it promises
 */
public record Recipe(String name, Promises promises) {
    /** InterProcessSemaphoreMutex: exclusive, not reentrant, any thread may release; leases are not queued FIFO. */
    public static final Recipe MUTEX = new Recipe("mutex", Promises.exclusive());
    /** InterProcessMutex: exclusive, reentrant, owner-only release, FIFO by sequence number. */
    public static final Recipe REENTRANT_MUTEX = new Recipe("reentrant-mutex",
            Promises.exclusive().withReentry().withOwnerOnlyRelease().withFifo());
    /** InterProcessReadWriteLock: reentrant, owner-only, FIFO with readers passing readers. */
    public static final Recipe READ_WRITE = new Recipe("rw",
            Promises.exclusive().withReentry().withOwnerOnlyRelease().withFifo().withReadWrite());
    /** InterProcessMultiLock over InterProcessMutexes: each key behaves as a reentrant mutex. */
    public static final Recipe MULTI = new Recipe("multi", Promises.exclusive().withReentry().withOwnerOnlyRelease());

    public Recipe {
        if (promises == null) {
            throw new IllegalArgumentException("a recipe without promises: " + name);
        }
    }

    /** InterProcessSemaphoreV2 with {@code permits} leases: any thread may release, leases are counted one by one. */
    public static Recipe semaphore(int permits) {
        return new Recipe("semaphore:" + permits, Promises.semaphore(permits));
    }

    /** A lock held as a lease (Redis, a lease row, etcd): exclusive, not reentrant, owner-only release, no queue. */
    public static Recipe lease(String name) {
        return new Recipe(name, Promises.exclusive().withOwnerOnlyRelease().withLease());
    }

    /** An exclusive (or read/write) lock with owner-only release and queue order, not reentrant. */
    public static Recipe queued(String name, boolean readWrite) {
        Promises p = Promises.exclusive().withOwnerOnlyRelease().withFifo();
        return new Recipe(name, readWrite ? p.withReadWrite() : p);
    }

    /** How many holders may hold at once (1 for mutexes; readers of a read/write lock are not counted). */
    public int capacity() {
        return promises.permits();
    }

    /** Whether the holding process may acquire again and must release as often. */
    public boolean reentrant() {
        return promises.reentrant();
    }

    /** Whether only the holding process may release. */
    public boolean ownerRelease() {
        return promises.ownerRelease();
    }

    /** Whether grants must follow queue order. */
    public boolean fifo() {
        return promises.fifo();
    }

    /** Whether acquires carry a read or write mode. */
    public boolean readWrite() {
        return promises.readWrite();
    }

    /** Whether holders are leases counted one by one against the capacity (a semaphore, even of one). */
    public boolean counted() {
        return promises.counted();
    }

    /** Whether a hold is a lease with a validity rather than a session the client is told about. */
    public boolean leased() {
        return promises.leased();
    }

    /** Whether holds are leadership in an election, granted and revoked by the library's callbacks too. */
    public boolean leadership() {
        return promises.leadership();
    }

    public boolean isSemaphore() {
        return counted();
    }
}
