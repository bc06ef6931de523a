package io.lockchaos.api;

/**
 * What a lock promises its users, which decides the checkers and the linearizability model a run applies to it. A
 * lock that promises more is held to more: a FIFO lock is checked for queue order, an owner-only lock for releases by
 * non-holders, a leased lock is judged by its validity rather than by connection states.
 *
 * @param permits how many may hold at once: 1 for an exclusive lock, N for a semaphore
 * @param counted whether holds are leases counted one by one against the permits, any of which anyone may return (a
 *     semaphore, even of one permit)
 * @param readWrite whether acquires take a read or a write side (readers share, writers exclude)
 * @param reentrant whether the holder may acquire again, and must then release as often
 * @param ownerRelease whether only the holder may release
 * @param fifo whether waiters are served in the order they asked
 * @param leased whether a hold is a lease with a validity ({@link LockClient#validUntilNanos}) rather than a session
 *     whose loss the client is told of
 * @param leadership whether holds are leadership in an election: granted and taken away by the library's callbacks
 *     ({@link LockContext#revoked}) as well as by acquire and release; the leader-election checker then also asks
 *     that a leader be elected again once the faults are over
 */
public record Promises(int permits, boolean counted, boolean readWrite, boolean reentrant, boolean ownerRelease, boolean fifo,
                       boolean leased, boolean leadership) {
    /** Promises without leadership. */
    public Promises(int permits, boolean counted, boolean readWrite, boolean reentrant, boolean ownerRelease,
                    boolean fifo, boolean leased) {
        this(permits, counted, readWrite, reentrant, ownerRelease, fifo, leased, false);
    }

    public Promises {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, got " + permits);
        }
        if (permits > 1 && !counted) {
            throw new IllegalArgumentException("a lock of " + permits + " permits is a semaphore: its holds are counted");
        }
        if (counted && (readWrite || reentrant || ownerRelease || fifo || leadership)) {
            throw new IllegalArgumentException("a semaphore (" + permits + " permits) promises no read/write sides, "
                    + "reentry, owner-only release, queue order or leadership");
        }
        if (leadership && (readWrite || reentrant)) {
            throw new IllegalArgumentException("leadership has no read/write sides and no reentry");
        }
    }

    /** An exclusive lock, not reentrant, released by anyone, no queue order, no lease: the least a lock promises. */
    public static Promises exclusive() {
        return new Promises(1, false, false, false, false, false, false);
    }

    /** A semaphore of {@code permits} leases, any of which anyone may return. */
    public static Promises semaphore(int permits) {
        return new Promises(permits, true, false, false, false, false, false);
    }

    public Promises withReadWrite() {
        return new Promises(permits, counted, true, reentrant, ownerRelease, fifo, leased, leadership);
    }

    public Promises withReentry() {
        return new Promises(permits, counted, readWrite, true, ownerRelease, fifo, leased, leadership);
    }

    public Promises withOwnerOnlyRelease() {
        return new Promises(permits, counted, readWrite, reentrant, true, fifo, leased, leadership);
    }

    public Promises withFifo() {
        return new Promises(permits, counted, readWrite, reentrant, ownerRelease, true, leased, leadership);
    }

    public Promises withLease() {
        return new Promises(permits, counted, readWrite, reentrant, ownerRelease, fifo, true, leadership);
    }

    public Promises withLeadership() {
        return new Promises(permits, counted, readWrite, reentrant, ownerRelease, fifo, leased, true);
    }

    /**
     * The promises in words, as test.json keeps them: {@code exclusive} or {@code semaphore:N}, then any of {@code
     * read-write}, {@code reentrant}, {@code owner-release}, {@code fifo}, {@code leased}, {@code leadership}.
     */
    public String words() {
        StringBuilder b = new StringBuilder(counted ? "semaphore:" + permits : "exclusive");
        if (readWrite) {
            b.append(" read-write");
        }
        if (reentrant) {
            b.append(" reentrant");
        }
        if (ownerRelease) {
            b.append(" owner-release");
        }
        if (fifo) {
            b.append(" fifo");
        }
        if (leased) {
            b.append(" leased");
        }
        if (leadership) {
            b.append(" leadership");
        }
        return b.toString();
    }

    /**
     * Reads {@link #words}.
     *
     * @throws IllegalArgumentException naming the word it does not know
     */
    public static Promises parse(String words) {
        String[] w = words.trim().split("[\\s,]+");
        Promises p;
        if (w[0].equals("exclusive")) {
            p = exclusive();
        } else if (w[0].matches("semaphore:[1-9][0-9]{0,8}")) {
            p = semaphore(Integer.parseInt(w[0].substring("semaphore:".length())));
        } else {
            throw new IllegalArgumentException("promises: expected 'exclusive' or 'semaphore:N' first, got '" + w[0]
                    + "'");
        }
        for (int i = 1; i < w.length; i++) {
            p = switch (w[i]) {
                case "read-write" -> p.withReadWrite();
                case "reentrant" -> p.withReentry();
                case "owner-release" -> p.withOwnerOnlyRelease();
                case "fifo" -> p.withFifo();
                case "leased" -> p.withLease();
                case "leadership" -> p.withLeadership();
                default -> throw new IllegalArgumentException("promises: unknown word '" + w[i] + "' (expected "
                        + "read-write, reentrant, owner-release, fifo, leased or leadership)");
            };
        }
        return p;
    }
}
