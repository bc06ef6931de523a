package io.lockchaos.api;

import java.util.List;

/**
 * Implemented by a {@link LockClient} whose lock keeps the data it protects: a database lock whose critical section
 * writes in the lock's own transaction, so that the unlock and the write commit together. The run then keeps the
 * protected set there rather than in its own memory: a holder reads and writes it through this client, and its add
 * lands exactly when the release that follows it succeeds (the release is the commit). A holder that lost its lock
 * (its transaction aborted with its connection) cannot write: that is the point of such a lock, and the checkers see
 * it. The history records the add as the transaction's own op, on a process of its own (the holder's process plus
 * {@code io.lockchaos.history.Op.FIRST_TRANSACTION_PROCESS}): invoked before the read, completed after the commit,
 * so that it spans the release that commits it.
 */
public interface TransactionalSet {

    /**
     * The set's elements: inside a hold, as the holder's transaction sees them; outside one (the run's final read, on
     * a fresh client), as committed.
     *
     * @param name the set's name, one per lock key ({@code <key>/set})
     */
    List<Long> readSet(String name) throws Exception;

    /**
     * Replaces the set's contents within the hold's transaction: durable only once the release commits (or at once,
     * see {@link #durableOnWrite}).
     */
    void writeSet(String name, List<Long> elements) throws Exception;

    /**
     * Whether a {@link #writeSet} is durable as soon as it returns, rather than with the release that follows: a store
     * that fences each write itself (etcd's transaction conditioned on the lock key's revision). The add is then the
     * holder's own op, completed by the write: ok when it returns, fail when it throws {@link Rejected}, unknown
     * (info) when it throws anything else, since such a write may have landed.
     */
    default boolean durableOnWrite() {
        return false;
    }

    /**
     * Thrown by a {@link #writeSet} that certainly changed nothing for another reason than a refusal: its transaction
     * failed before its commit was sent (a cut connection, a server that is down). The add fails; anything else a
     * durable write throws leaves its outcome unknown.
     */
    final class NotWritten extends Exception {
        private static final long serialVersionUID = 1L;

        public NotWritten(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Thrown by a {@link #writeSet} that certainly changed nothing: the store refused it (a stale holder's write). */
    final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;

        public Rejected(String message) {
            super(message);
        }
    }
}
