package io.lockchaos.checker;

import java.util.Locale;

/** Every kind of anomaly a checker reports, with the severity it has unless the checker says otherwise. */
public enum AnomalyKind {
    /** Two processes certainly held an exclusive lock at once. */
    DOUBLE_HOLDER(Severity.VIOLATION),
    /** More than N certain holders of a semaphore with N permits. */
    OVER_CAPACITY(Severity.VIOLATION),
    /** A writer of a read/write lock overlapped another holder. */
    RW_CONFLICT(Severity.VIOLATION),
    /** A grant on a lock node whose ephemeral owner is not the client's session (the CURATOR-604 signature). */
    FOREIGN_OWNER_GRANT(Severity.VIOLATION),
    /**
     * A grant on a lock node that the lock service had already deleted when it answered (its lease expired while the
     * acquire waited): the service told a client it held a lock it could not hold, as etcd 3.4's Lock does (etcd
     * issue 11456).
     */
    EXPIRED_GRANT(Severity.VIOLATION),
    /** A release found the lock no longer held: it was revoked while its holder believed it held it. */
    LOST_LOCK(Severity.NOTE),
    /** A reentrant recipe refused or timed out a re-acquire by the process that held the lock. */
    REENTRY_DENIED(Severity.VIOLATION),
    /** A non-reentrant recipe granted a second acquire to the process that already held it. */
    NON_REENTRANT_GRANTED(Severity.VIOLATION),
    /** A release by a process that did not hold the lock, where the recipe promises owner-only release. */
    RELEASE_BY_NON_HOLDER(Severity.VIOLATION),
    /** The resource accepted a fenced write whose token is lower than one it had already accepted. */
    STALE_WRITE_ACCEPTED(Severity.VIOLATION),
    /** An acknowledged add is missing from the final read. */
    LOST_UPDATE(Severity.VIOLATION),
    /** The final read contains an element nobody tried to add. */
    UNEXPECTED_ELEMENT(Severity.VIOLATION),
    /**
     * The final read holds an element more than once: one intended add was applied twice (a retry of a commit whose
     * outcome was unknown, and which had taken).
     */
    DUPLICATED_UPDATE(Severity.VIOLATION),
    /** After the final heal, nobody held the lock yet an acquirer could not get it within its bound. */
    LEAKED_LOCK(Severity.VIOLATION),
    /**
     * After the final heal, a candidate of a leader election waited out its timeout and nobody was leader meanwhile:
     * the election did not elect anyone again once the faults were over.
     */
    NO_LEADER(Severity.VIOLATION),
    /** A lock node remained at the final inspection whose owner session is closed or whose owner does not hold. */
    ORPHAN_NODE(Severity.VIOLATION),
    /**
     * At the final inspection, each server read on its own after it caught up with the others, some servers held lock
     * nodes that others did not: replicas that lost transactions (the service broke its own promise, not the lock).
     */
    SERVERS_DIVERGED(Severity.VIOLATION),
    /** A FIFO recipe granted a later waiter before an earlier one. */
    FIFO_OVERTAKE(Severity.VIOLATION),
    /** An acquire returned later than its timeout plus the workload's slack (a liveness promise broken). */
    ACQUIRE_OVERRUN(Severity.VIOLATION),
    /** A grant's fencing token is not higher than that of a hold of the same key that had ended before it was asked. */
    TOKEN_REGRESSION(Severity.VIOLATION),
    /** The same for the sequence number in the lock node's name: numbering restarted (the parent was made again). */
    SEQUENCE_RESTART(Severity.NOTE),
    /** No sequential execution of the model explains the history. */
    NONLINEARIZABLE(Severity.VIOLATION);

    private final Severity defaultSeverity;

    AnomalyKind(Severity defaultSeverity) {
        this.defaultSeverity = defaultSeverity;
    }

    public Severity defaultSeverity() {
        return defaultSeverity;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static AnomalyKind parse(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
