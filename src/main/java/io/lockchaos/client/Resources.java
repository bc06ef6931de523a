package io.lockchaos.client;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.history.Fn;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The resources a lock protects, kept outside ZooKeeper in this JVM: a set that a critical section reads, sleeps
 * in, and writes back whole (so an overlap shows up as a lost add, the way an application would see it), and a fenced
 * register that rejects writes whose token is lower than the highest it has accepted. One instance per lock key;
 * thread-safe.
 *
 * <p>The set in this JVM is a sorted {@code long[]} that is never changed in place: a read is the current array, a
 * write puts a new one with the element inserted. It grows with every acknowledged add for the whole run (it is the
 * evidence the lost-update checker reads at the end), so its cost per add is what a soak's memory grows by: 8 bytes
 * here, against about 64 for the boxed tree it was, whose copy on every read also grew with the run.
 */
public final class Resources {
    /**
     * A durable write of the protected set whose outcome is unknown, already recorded as info: as in Jepsen, an info
     * completion retires its process, so the holder neither releases nor writes again under it (its client goes with
     * the process, and the lock with the client's session or lease).
     */
    public static final class IndeterminateWrite extends Exception {
        IndeterminateWrite() {
            super("the protected set's write may or may not have landed", null, false, false);
        }
    }

    /**
     * One worker's add whose commit went unanswered, which its next critical sections add again until one is
     * acknowledged ({@link AfterUnknownCommit#RETRY}, {@link AfterUnknownCommit#RETRY_IF_ABSENT}).
     */
    public static final class Retry {
        private final AfterUnknownCommit how;
        private long element = -1;

        public Retry(AfterUnknownCommit how) {
            this.how = how;
        }
    }

    private final String lockKey;
    private final String setKey;
    private final String registerKey;
    private final AtomicLong nextElement = new AtomicLong();
    private long[] set = new long[0];
    /** Whether a holder kept the set in its lock's own store: the final read must then read it there. */
    private volatile boolean kept;
    /** Whether holders kept the set in the run's database ({@code protected_data}): the final read reads it there. */
    private volatile boolean inDatabase;
    private long highestToken = -1;

    public Resources(String lockKey) {
        this.lockKey = lockKey;
        this.setKey = lockKey + "/set";
        this.registerKey = lockKey + "/register";
    }

    /** The lock key whose resources these are. */
    public String lockKey() {
        return lockKey;
    }

    /** A fenced write: accepted unless a higher token was accepted before. Returns whether it was. */
    public synchronized boolean fencedWrite(long token) {
        if (token < highestToken) {
            return false;
        }
        highestToken = token;
        return true;
    }

    private synchronized long[] readSet() {
        return set;
    }

    private synchronized void writeSet(long[] s) {
        set = s;
    }

    /** {@code s} with {@code e} inserted in order (a new array; {@code s} itself when it already holds {@code e}). */
    static long[] with(long[] s, long e) {
        int i = java.util.Arrays.binarySearch(s, e);
        if (i >= 0) {
            return s;
        }
        i = -i - 1;
        long[] out = new long[s.length + 1];
        System.arraycopy(s, 0, out, 0, i);
        out[i] = e;
        System.arraycopy(s, i, out, i + 1, s.length - i);
        return out;
    }

    /**
     * The critical section a holder runs: a fenced write with its token (when it has one), then a read-modify-write
     * of the set that holds the lock for {@code holdMillis} between the read and the write. Both are recorded. A
     * holder that must stop ({@code stillSafe} false) skips what is left: an unfinished add is recorded as fail
     * because the set was not written.
     */
    public void criticalSection(Recorder rec, int process, long token, long holdMillis,
                                java.util.function.BooleanSupplier stillSafe) throws InterruptedException {
        criticalSection(rec, process, token, holdMillis, stillSafe, () -> { });
    }

    /**
     * Like {@link #criticalSection(Recorder, int, long, long, java.util.function.BooleanSupplier)}, passing {@code
     * danger} after the holder's last check and before its write: a pause there (a GC pause) makes the write stale
     * even for a holder that checks its connection state.
     */
    public void criticalSection(Recorder rec, int process, long token, long holdMillis,
                                java.util.function.BooleanSupplier stillSafe, DangerPoint danger)
            throws InterruptedException {
        try {
            criticalSection(rec, process, token, holdMillis, stillSafe, danger, () -> Long.MAX_VALUE, false, null,
                    null);
        } catch (IndeterminateWrite e) {
            throw new IllegalStateException(e); // only a lock's own store writes durably, and there is none here
        }
    }

    /**
     * The critical section of a holder whose lock has a lease: the hold wakes no later than {@code validUntilNanos}
     * (so a holder stops the moment its validity ends, not at its next poll), and with {@code tokenless} (a Redis
     * lock without a fencing token) the danger point is just before the set is written back rather than before a
     * fenced write. With a {@code store} (a lock that keeps the data it protects), the set is read and written through
     * it, in the lock's transaction: the add is then the transaction's op ({@link Op#transactionOf}), and once written
     * it is returned still open, for the caller to complete when the release that commits it has (a read or write
     * that throws fails it at once, as nothing can be committed). A store whose writes are durable at once ({@link
     * TransactionalSet#durableOnWrite}) completes the holder's own add with its write instead; a durable write whose
     * outcome is unknown is recorded as info, and {@link IndeterminateWrite} tells the caller that the process is
     * retired by it. With a {@code retry} (the worker's own), such an add is added again by the worker's next
     * critical sections until one is acknowledged. A store's set is read and written back as a list, so that an
     * element added twice is there twice.
     *
     * @return the add awaiting its commit, or null when there is none
     * @throws IndeterminateWrite when the add was recorded as info: the process may not act again
     */
    public Op criticalSection(Recorder rec, int process, long token, long holdMillis,
                              java.util.function.BooleanSupplier stillSafe, DangerPoint danger,
                              java.util.function.LongSupplier validUntilNanos, boolean tokenless,
                              TransactionalSet store, Retry retry)
            throws InterruptedException, IndeterminateWrite {
        if (!stillSafe.getAsBoolean()) {
            return null;
        }
        if (!tokenless) {
            danger.reach();
        }
        if (token >= 0) {
            Op w = rec.invoke(process, Fn.WRITE, registerKey, Map.of("token", token));
            boolean accepted = fencedWrite(token);
            rec.complete(w, OpType.OK, Map.of("token", token, "accepted", accepted), null);
        }
        boolean retrying = retry != null && retry.element >= 0;
        long element = retrying ? retry.element : nextElement.getAndIncrement() * 100_000L + process;
        if (store != null) {
            kept = true;
        }
        boolean durable = store != null && store.durableOnWrite();
        Op add = rec.invoke(store == null || durable ? process : Op.transactionOf(process), Fn.ADD, setKey, element);
        long[] read = null;
        List<Long> copy = null;
        try {
            if (store == null) {
                read = readSet();
            } else {
                copy = new ArrayList<>(store.readSet(setKey));
            }
        } catch (TransactionalSet.Rejected e) {
            rec.complete(add, OpType.FAIL, null, "rejected: " + e.getMessage()); // a claim refused as it read
            return null;
        } catch (Exception e) {
            rec.complete(add, OpType.FAIL, null, "not written: " + e);
            return null;
        }
        boolean finished;
        try {
            finished = LockWorker.holdWhile(holdMillis, stillSafe, validUntilNanos);
        } catch (InterruptedException e) {
            rec.complete(add, OpType.FAIL, null, "interrupted"); // the set was not written
            throw e;
        }
        if (!finished) {
            rec.complete(add, OpType.FAIL, null, "stopped: connection state or lease");
            return null;
        }
        if (tokenless) {
            try {
                danger.reach();
            } catch (InterruptedException e) {
                rec.complete(add, OpType.FAIL, null, "interrupted");
                throw e;
            }
        }
        if (store == null) {
            writeSet(with(read, element));
            rec.complete(add, OpType.OK, element, null);
            return null;
        }
        if (!(retrying && retry.how == AfterUnknownCommit.RETRY_IF_ABSENT && copy.contains(element))) {
            copy.add(element); // appended, as an application appends a ledger entry: what is added twice shows twice
        }
        try {
            store.writeSet(setKey, List.copyOf(copy));
        } catch (TransactionalSet.Rejected e) {
            rec.complete(add, OpType.FAIL, null, "rejected: " + e.getMessage());
            return null;
        } catch (TransactionalSet.NotWritten e) {
            rec.complete(add, OpType.FAIL, null, "not written: " + e.getMessage());
            return null;
        } catch (Exception e) {
            if (durable) {
                rec.complete(add, OpType.INFO, null, "unknown: " + e); // such a write may have landed
                if (retry != null && retry.how != AfterUnknownCommit.RETIRE) {
                    retry.element = element;
                }
                throw new IndeterminateWrite();
            } else {
                rec.complete(add, OpType.FAIL, null, "not written: " + e); // its transaction cannot commit it now
            }
            return null;
        }
        if (durable) {
            rec.complete(add, OpType.OK, element, null);
            if (retry != null) {
                retry.element = -1;
            }
            return null;
        }
        return add;
    }

    /** Notes that a holder keeps the set in the run's database rather than in its lock's own store. */
    public void keptInDatabase() {
        inDatabase = true;
    }

    /** Whether holders kept the set in the run's database. */
    public boolean inDatabase() {
        return inDatabase;
    }

    /** Records the final read of the set. */
    public void finalRead(Recorder rec, int process) {
        finalRead(rec, process, null);
    }

    /**
     * Records the final read of the set, through {@code store} when the lock keeps it (a read that throws is
     * recorded as info: the checker then cannot judge the set, and says so).
     */
    public void finalRead(Recorder rec, int process, TransactionalSet store) {
        Op r = rec.invoke(process, Fn.READ, setKey, null);
        if (store == null && kept) {
            rec.complete(r, OpType.INFO, null, "no client to read the set its lock keeps");
            return;
        }
        List<Long> contents;
        try {
            // in order, and an element added twice twice: the lost-update checker counts duplicates
            contents = store == null ? java.util.Arrays.stream(readSet()).boxed().toList()
                    : store.readSet(setKey).stream().sorted().toList();
        } catch (Exception e) {
            rec.complete(r, OpType.INFO, null, String.valueOf(e));
            return;
        }
        rec.complete(r, OpType.OK, contents, null);
    }
}
