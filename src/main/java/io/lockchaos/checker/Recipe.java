package io.lockchaos.checker;

/**
 * What the lock under test promises, which decides what the checkers accept.
 *
 * @param name the wire name ({@code mutex}, {@code reentrant-mutex}, {@code semaphore:N}, {@code rw}, {@code multi})
 * @param capacity how many holders may hold at once (1 for mutexes; readers of a rw lock are not counted)
 * @param reentrant whether the holding process may acquire again and must release as often
 * @param ownerRelease whether only the holding process may release (Curator's InterProcessMutex)
 * @param fifo whether grants must follow queue order
 * @param readWrite whether acquires carry a read or write mode
 */
public record Recipe(String name, int capacity, boolean reentrant, boolean ownerRelease, boolean fifo,
                     boolean readWrite) {
    /** InterProcessSemaphoreMutex: exclusive, not reentrant, any thread may release; leases are not queued FIFO. */
    public static final Recipe MUTEX = new Recipe("mutex", 1, false, false, false, false);
    /** InterProcessMutex: exclusive, reentrant, owner-only release, FIFO by sequence number. */
    public static final Recipe REENTRANT_MUTEX = new Recipe("reentrant-mutex", 1, true, true, true, false);
    /** InterProcessReadWriteLock: reentrant, owner-only, FIFO with readers passing readers. */
    public static final Recipe READ_WRITE = new Recipe("rw", 1, true, true, true, true);
    /** InterProcessMultiLock over InterProcessMutexes: each key behaves as a reentrant mutex. */
    public static final Recipe MULTI = new Recipe("multi", 1, true, true, false, false);

    public Recipe {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
    }

    /** InterProcessSemaphoreV2 with {@code permits} leases: any thread may release, leases are counted one by one. */
    public static Recipe semaphore(int permits) {
        return new Recipe("semaphore:" + permits, permits, false, false, false, false);
    }

    /** Whether the lock is a Redis lock, held by a lease rather than a session the client is told about. */
    public boolean leased() {
        return name.startsWith("redis") || name.startsWith("redlock");
    }

    public boolean isSemaphore() {
        return name.startsWith("semaphore:");
    }

    /**
     * Parses a wire name.
     *
     * @throws IllegalArgumentException with a one-line message naming the accepted forms
     */
    public static Recipe parse(String s) {
        switch (s) {
            case "mutex": return MUTEX;
            case "reentrant-mutex": return REENTRANT_MUTEX;
            case "rw": return READ_WRITE;
            case "multi": return MULTI;
            case "redis-single", "redlock-tutorial", "redlock", "redisson", "redisson-fenced":
                // a Redis lock: exclusive, not reentrant, released by its value's owner only, no queue
                return new Recipe(s, 1, false, true, false, false);
            default:
                if (s.startsWith("semaphore:")) {
                    String n = s.substring("semaphore:".length());
                    try {
                        int permits = Integer.parseInt(n);
                        if (permits >= 1) {
                            return semaphore(permits);
                        }
                    } catch (NumberFormatException e) {
                        // fall through to the message below
                    }
                    throw new IllegalArgumentException("recipe: semaphore permits must be a whole number >= 1, got '"
                            + n + "'");
                }
                throw new IllegalArgumentException("recipe: unknown recipe '" + s
                        + "' (expected mutex, reentrant-mutex, semaphore:N, rw, multi, redis-single, redlock-tutorial,"
                        + " redlock, redisson or redisson-fenced)");
        }
    }
}
