package io.lockchaos.client;

import io.lockchaos.api.TransactionalSet;
import java.util.List;

/**
 * One worker's connection to the database that keeps the protected data ({@code protected_data}), used the way the
 * tutorial's pattern uses it: begin a transaction and read, compute (the hold), write, commit, and only then release
 * the lock. A service that keeps data ({@link LockService#keepsData}) opens it, through the worker's own proxy so
 * that the data path has faults of its own. Used from the worker's thread only.
 */
public interface DataConnection extends AutoCloseable {
    /**
     * Begins a transaction and reads the set {@code name} in it (a transaction left open by a critical section that
     * stopped is rolled back first; a connection that broke is opened again).
     *
     * @param claim the holder's token, which the read raises the row's fence to (refused when a higher one has
     *     claimed or written it), so that no lower token writes after this holder has read; negative for a plain read
     * @throws TransactionalSet.Rejected when the claim was refused
     */
    List<Long> read(String name, long claim) throws Exception;

    /**
     * Writes {@code elements} as the set {@code name} in the transaction {@link #read} began and commits it.
     *
     * @param fence the holder's token, which the write is conditioned on (refused when a higher one has written);
     *     negative for an unconditioned write
     * @param beforeCommit runs just before the COMMIT is sent (where the nemesis loses its answer)
     * @throws TransactionalSet.Rejected when the fence refused the write (rolled back)
     * @throws TransactionalSet.NotWritten when the transaction failed before its commit was sent
     * @throws Exception anything else: the commit was sent and its outcome is unknown
     */
    void write(String name, List<Long> elements, long fence, Runnable beforeCommit) throws Exception;

    /**
     * Rolls back a transaction that {@link #read} began and no {@link #write} ended (a critical section that stopped
     * before its write): what it read, and for a claim the row's lock, is let go at once, not at the next hold.
     */
    void abandon();

    /** Closes the connection; an open transaction is rolled back by the server. */
    @Override
    void close();

    /**
     * The protected set of a grant on this connection, as the critical section reads and writes it: durable on its
     * write (the commit), fenced by {@code token} as {@code fencing} says (a grant without a token, -1, is never
     * fenced).
     */
    default TransactionalSet grant(long token, DataFencing fencing, Runnable beforeCommit) {
        DataConnection c = this;
        return new TransactionalSet() {
            @Override
            public List<Long> readSet(String name) throws Exception {
                return c.read(name, fencing == DataFencing.CLAIM ? token : -1);
            }

            @Override
            public void writeSet(String name, List<Long> elements) throws Exception {
                c.write(name, elements, fencing == DataFencing.NONE ? -1 : token, beforeCommit);
            }

            @Override
            public boolean durableOnWrite() {
                return true;
            }
        };
    }
}
