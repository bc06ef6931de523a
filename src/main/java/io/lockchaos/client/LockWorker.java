package io.lockchaos.client;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.checker.LockHolds;
import io.lockchaos.history.Fn;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.workload.Cycle;
import io.lockchaos.workload.Generator;
import io.lockchaos.workload.Generators;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * One worker thread's loop: asks its {@link Generator} for the next {@link Cycle} (pause, acquire with a timeout or a
 * single try, re-enter, hold, release) until the generator is exhausted, recording every step. An acquire that times
 * out is a fail; a release that finds the node gone fails with {@code not-held}; any exception
 * makes the op info, retires the process, and the worker continues as process {@code p + workers} with a fresh
 * client, as Jepsen does.
 */
public final class LockWorker implements Runnable {
    private final Recorder recorder;
    private final String key;
    private final int workers;
    private final IntFunction<LockClient> clients;
    private final int worker;
    private final long startNanos;
    private Generator generator;
    private String mode;
    private List<String> keys;
    private Resources resources;
    /** The worker's connection to the protected data in a database, or null when it is in the runner's memory. */
    private DataConnection data;
    private DataFencing fencing = DataFencing.NONE;
    /** The add this worker retries after an unanswered commit, or null where it never retries. */
    private Resources.Retry retry;
    private ClientMode clientMode = ClientMode.IGNORE;
    /** The client of the current process (its lease decides {@link #stillSafe} for Redis locks). */
    private LockClient current;
    private int depth = 1;
    private long timeoutMillis;
    private ClientHandle handle;
    private java.util.concurrent.CountDownLatch ready;
    /** Connection states seen since the current grant; only the worst matters, so the latest bad one is kept. */
    private volatile String stateSinceGrant;
    /**
     * Whether the library took the lock from this client ({@link LockContext#revoked}) since the current acquire was
     * invoked: the hold ends there, and the worker neither acts on it nor releases it.
     */
    private volatile boolean revoked;
    /** The session of the hold being downgraded while its read acquire runs, else 0. */
    private volatile long downgrading;
    /** The session of the current hold's grant. */
    private long heldSession;
    /** Whether the client's mode ended the write hold while its downgrade's read acquire waited. */
    private volatile boolean stoppedInDowngrade;
    private volatile int process;
    /** The process the current client was opened for. */
    private volatile int clientOpenedFor = -1;
    private boolean keepAfterUnknown;
    /** Set by an acquire or a last release whose outcome is unknown, for the retirement that follows it. */
    private boolean unknownWithoutHold;
    private volatile String openFailure;
    /** The transaction's add that the next release commits (a lock that keeps its data), or null. */
    private Op awaitingCommit;
    private int downgradePct;
    private java.util.SplittableRandom downgrades;

    /**
     * A worker that runs the cycles of {@code generator}, whose clock starts at {@code startNanos} ({@link
     * System#nanoTime()}), or when the worker starts its first cycle when it is 0.
     *
     * @param clients makes a client for a process number (a new one after each indeterminate op)
     */
    public LockWorker(Recorder recorder, String key, int firstProcess, int workers, IntFunction<LockClient> clients,
                      Generator generator, long startNanos) {
        this.recorder = recorder;
        this.key = key;
        this.process = firstProcess;
        this.worker = firstProcess;
        this.workers = workers;
        this.clients = clients;
        this.generator = generator;
        this.startNanos = startNanos;
    }

    /** A worker that acquires with {@code acquireTimeout}, holds for {@code hold} and releases until the deadline. */
    public LockWorker(Recorder recorder, String key, int firstProcess, int workers, IntFunction<LockClient> clients,
                      Duration acquireTimeout, Duration hold, long deadlineNanos) {
        this(recorder, key, firstProcess, workers, clients, Generators.until(deadlineNanos - System.nanoTime(),
                Generators.repeat(Cycle.of(acquireTimeout.toMillis(), hold.toMillis()))), System.nanoTime());
    }

    /** Tries to open a client {@code n} times, a second apart, before it stops (default 3). */
    public LockWorker openTries(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("open tries must be at least 1, got " + n);
        }
        this.openTries = n;
        return this;
    }

    /** Why the worker's first client could not be opened, or null: set before it counts down its start latch. */
    public String openFailure() {
        return openFailure;
    }

    /** The worker's current process number (it changes after an indeterminate op). */
    public int process() {
        return process;
    }

    /**
     * The process the client opened for process {@code openedFor} now acts for: the worker's current one while it
     * keeps that client (see {@link #keepClientAfterUnknown}), else {@code openedFor}, whose client is gone.
     */
    public int processOfClient(int openedFor) {
        return openedFor == clientOpenedFor ? process : openedFor;
    }

    /**
     * After an acquire, or a last release, whose outcome is unknown the process ends, as after any indeterminate op,
     * but its client goes on for the next process instead of being closed ({@code after_unknown keep-client}): an
     * application keeps its one lock client when a call fails, so a session whose release went unanswered lives on,
     * and with it whatever the release left behind (CURATOR-678). A process that may still hold the lock (its write
     * or a nested release unknown) closes its client still: no later process of the worker would release that hold.
     */
    public LockWorker keepClientAfterUnknown(boolean keep) {
        this.keepAfterUnknown = keep;
        return this;
    }

    /** Records {@code mode} (read or write) on every acquire and release, for read/write locks. */
    public LockWorker mode(String readOrWrite) {
        this.mode = readOrWrite;
        return this;
    }

    /** How the worker reacts to connection states while holding (default: ignores them). */
    public LockWorker clientMode(ClientMode m) {
        this.clientMode = m;
        return this;
    }

    /**
     * Acquires at least {@code k} times per hold (re-entering; a cycle may ask for more), and releases as often as
     * it got. A refused re-acquire ends the nesting; that is what a non-reentrant recipe must do.
     */
    public LockWorker reentryDepth(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("reentry depth must be at least 1, got " + k);
        }
        this.depth = k;
        return this;
    }

    /** Tells the worker its session's connection state changed (called from the client's state listener). */
    public void onState(String state) {
        if (LockContext.REVOKED.equals(state)) {
            revoked = true;
            return;
        }
        if (!"CONNECTED".equals(state) && !"RECONNECTED".equals(state)) {
            stateSinceGrant = state.equals("LOST") || stateSinceGrant == null ? state : stateSinceGrant;
        } else if (handle != null && handle.phase() != ClientHandle.Phase.HOLDING) {
            stateSinceGrant = null; // back before any grant: a lock granted now was granted on a live session
        }
        long session = downgrading;
        if (session != 0 && !stoppedInDowngrade && !clientMode.mayContinueAfter(stateSinceGrant)) {
            // a writer blocked in its downgrade's read acquire stops being the writer now, as its mode says, though
            // it cannot release until the acquire returns: the history ends its write hold here
            stoppedInDowngrade = true;
            recorder.state(process, LockContext.REVOKED, session, "told " + state + " while its downgrade's read"
                    + " acquire waited: it stops holding the write lock, as its client mode says");
        }
    }

    /** Whether the holder may still act as if it held the lock. */
    private boolean stillSafe() {
        LockClient c = current;
        return !revoked && clientMode.mayContinueAfter(stateSinceGrant) && (c == null || c.stillHolds());
    }

    /** Sleeps up to {@code millis} in short slices, returning early (false) once the holder must stop. */
    static boolean holdWhile(long millis, java.util.function.BooleanSupplier safe) throws InterruptedException {
        return holdWhile(millis, safe, () -> Long.MAX_VALUE);
    }

    /**
     * Like {@link #holdWhile(long, java.util.function.BooleanSupplier)}, waking no later than {@code wakeByNanos} (a
     * lease's end, when {@code safe} turns false): a poll 10 ms late would keep a Redis holder past its validity.
     */
    static boolean holdWhile(long millis, java.util.function.BooleanSupplier safe,
                             java.util.function.LongSupplier wakeByNanos) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (safe.getAsBoolean()) {
            long now = System.nanoTime();
            long left = end - now;
            if (left <= 0) {
                return true;
            }
            long wakeBy = wakeByNanos.getAsLong();
            // wake exactly at the validity's end; one already past while the lock still says it holds (a renewal
            // not yet reported from an agent) is polled each millisecond rather than spun on
            long toWake = wakeBy == Long.MAX_VALUE ? Long.MAX_VALUE : wakeBy - now > 0 ? wakeBy - now : 1_000_000L;
            long nap = Math.min(Math.min(10_000_000L, left), toWake);
            if (nap > 0) {
                Thread.sleep(nap / 1_000_000L, (int) (nap % 1_000_000L));
            }
        }
        return false;
    }

    /** When the current client's lease ends by its own reckoning ({@link LockClient#validUntilNanos}). */
    private long validUntil() {
        LockClient c = current;
        return c == null ? Long.MAX_VALUE : c.validUntilNanos();
    }

    /**
     * Makes the worker count {@code latch} down once its first client is open, and wait for it to reach zero before
     * its first cycle, so that all workers start together with their sessions open.
     */
    public LockWorker startTogether(java.util.concurrent.CountDownLatch latch) {
        this.ready = latch;
        return this;
    }

    /** Publishes where this worker is (waiting, holding) and lets the nemesis pause it, through {@code h}. */
    public LockWorker handle(ClientHandle h) {
        this.handle = h;
        return this;
    }

    private void phase(ClientHandle.Phase p) {
        if (handle != null) {
            handle.phase(p);
        }
    }

    /** After the holder's last check that it holds the lock and before its write: where a GC pause hurts most. */
    private void dangerPoint() throws InterruptedException {
        if (handle != null) {
            handle.dangerPoint();
        }
    }

    /** Just before a COMMIT on the protected data is sent, where the nemesis may lose its answer. */
    private void commitPoint() {
        if (handle == null) {
            return;
        }
        try {
            handle.commitPoint();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the nemesis could not cut the way back: the commit goes on, and the fault records no process
        }
    }

    /** Inside a release, where a pause lets the lock expire between what the release reads and what it deletes. */
    private void releasePoint() throws InterruptedException {
        if (handle != null) {
            handle.releasePoint();
        }
        if (awaitingCommit != null) {
            commitPoint(); // a lock that keeps its data commits it with this release (pg-advisory-xact)
        }
    }

    /** Runs the critical section on these resources while holding (instead of only sleeping). */
    public LockWorker resources(Resources r) {
        this.resources = r;
        return this;
    }

    /**
     * Keeps the protected set in a database through {@code connection} (the worker's own), fenced by the grant's token
     * as {@code fencing} says, and after a commit that went unanswered adding the same element again in the worker's
     * next processes as {@code afterUnknown} says; a lock that keeps its data in its own transaction keeps it there
     * still.
     */
    public LockWorker data(DataConnection connection, DataFencing fencing, AfterUnknownCommit afterUnknown) {
        this.data = connection;
        this.fencing = fencing;
        this.retry = new Resources.Retry(afterUnknown);
        return this;
    }

    /** Records the keys of a multi-lock on every acquire and release. */
    public LockWorker keys(List<String> multiLockKeys) {
        this.keys = List.copyOf(multiLockKeys);
        return this;
    }

    /**
     * Makes {@code pct} percent of this writer's holds end in a downgrade (drawn from {@code seed}): see {@link
     * io.lockchaos.core.WorkloadSpec#downgradePct()}. Only a client with a {@link LockClient#readSide} downgrades.
     */
    public LockWorker downgrade(int pct, long seed) {
        this.downgradePct = pct;
        this.downgrades = new java.util.SplittableRandom(seed);
        return this;
    }

    private Map<String, Object> params(boolean acquire) {
        return params(acquire, mode);
    }

    private Map<String, Object> params(boolean acquire, String mode) {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        if (acquire) {
            params.put("timeout_ms", timeoutMillis);
        }
        if (mode != null) {
            params.put("mode", mode);
        }
        if (keys != null) {
            params.put("keys", keys);
        }
        return params.isEmpty() ? null : params;
    }

    /**
     * Runs cycles until the generator is exhausted. The last client stays open: its session belongs to the caller,
     * whose final inspection must still see it (a lock node it left is a leak only while its session lives).
     */
    @Override
    public void run() {
        if (handle != null) {
            handle.thread(Thread.currentThread());
        }
        LockClient client;
        try {
            client = open();
        } finally {
            if (ready != null) {
                ready.countDown();
            }
        }
        if (client == null) {
            return;
        }
        try {
            if (ready != null) {
                ready.await(); // every worker has its session before anyone starts: faults meet all of them
            }
        } catch (InterruptedException e) {
            return;
        }
        long start = startNanos == 0 ? System.nanoTime() : startNanos;
        while (client != null && !Thread.currentThread().isInterrupted()) {
            Generator.Step step = generator.next(new Generator.Context(worker, System.nanoTime() - start));
            if (step == null) {
                break;
            }
            generator = step.rest();
            Cycle cycle = step.cycle();
            if (!pauseBefore(cycle)) {
                return;
            }
            timeoutMillis = cycle.timeoutMillis();
            Duration acquireTimeout = Duration.ofMillis(timeoutMillis);
            Duration hold = Duration.ofMillis(cycle.holdMillis());
            phase(ClientHandle.Phase.WAITING);
            // what the holder hears from here on counts against this grant, even before the acquire returns
            stateSinceGrant = null;
            revoked = false;
            Op acq = recorder.invoke(process, Fn.ACQUIRE, key, params(true));
            Grant g;
            try {
                acquiring(true);
                try {
                    g = client.acquire(acquireTimeout);
                } finally {
                    acquiring(false);
                }
            } catch (InterruptedException e) {
                Interrupted i = interruptedByNemesis(client, acq, e);
                if (i != Interrupted.NO) {
                    client = i == Interrupted.RETIRE ? retire(client) : client;
                    continue;
                }
                recorder.complete(acq, OpType.INFO, null, "interrupted");
                return;
            } catch (Exception e) {
                Interrupted i = interruptedByNemesis(client, acq, e);
                if (i != Interrupted.NO) {
                    client = i == Interrupted.RETIRE ? retire(client) : client;
                    continue;
                }
                recorder.complete(acq, OpType.INFO, null, String.valueOf(e));
                unknownWithoutHold = true;
                client = retire(client);
                continue;
            }
            if (handle != null) {
                handle.takeInterrupt(); // it came as the acquire returned: the grant stands, the status is cleared
            }
            if (g == null) {
                recorder.complete(acq, OpType.FAIL, null, "timeout");
                phase(ClientHandle.Phase.IDLE);
                continue;
            }
            recorder.complete(acq, OpType.OK, g.toValue(), null);
            heldSession = g.session();
            if (revoked) {
                // taken away while the grant was on its way here: its own REVOKED may be in the history before the
                // grant, where it ends nothing, so the hold is ended after the grant
                recorder.state(process, LockContext.REVOKED, g.session(),
                        "revoked before its grant was recorded");
                phase(ClientHandle.Phase.IDLE);
                continue;
            }
            phase(ClientHandle.Phase.HOLDING); // after the grant is in the history: a fault on "the holder" follows it
            int held = reenter(client, Math.max(this.depth, cycle.depth()), acquireTimeout);
            if (held < 0) {
                client = retire(client);
                continue;
            }
            if (!holdOnce(g, hold)) {
                client = retire(client); // its write's outcome is unknown: the process may not release
                continue;
            }
            if (revoked) {
                phase(ClientHandle.Phase.IDLE); // the hold ended at its REVOKED: nothing is left to release
                continue;
            }
            Downgrade d = held == 1 ? maybeDowngrade(client, acquireTimeout, hold) : Downgrade.REFUSED;
            if (d == Downgrade.INTERRUPTED) {
                return;
            }
            if (d == Downgrade.RETIRE) {
                client = retire(client);
                continue;
            }
            if (d == Downgrade.DONE) {
                continue;
            }
            phase(ClientHandle.Phase.IDLE);
            for (; held > 0; held--) {
                if (!released(client, mode, held == 1)) {
                    client = retire(client);
                    break;
                }
            }
        }
        if (revoked && client != null) {
            // the last hold was taken away and the client stayed a candidate (a leader latch re-joins its election):
            // it leaves, so that no candidate of the run's is left to lead unrecorded while the run ends
            released(client, mode, true);
        }
        committed(OpType.INFO, "never released: the run ended first");
    }

    private void acquiring(boolean in) {
        if (handle != null) {
            handle.acquiring(in);
        }
    }

    /**
     * Whether the acquire {@code acq} ended with {@code e} because the nemesis interrupted it (an interrupt fault).
     * An acquire that says it was interrupted (an InterruptedException, or an exception caused by one) failed: that
     * is {@link java.util.concurrent.locks.Lock}'s promise, so a lock the library took for it anyway shows later as
     * held by nobody. Any other exception leaves the outcome unknown, and the worker goes on as a new process. With
     * the fault's {@code release=1} the worker then releases once, as a {@code finally} block would. It keeps its
     * client either way, as an application keeps its lock client when one task is cancelled, unless that release's
     * outcome is unknown: then the process ends as after any such release.
     */
    private Interrupted interruptedByNemesis(LockClient client, Op acq, Exception e) {
        if (handle == null || !handle.takeInterrupt()) {
            return Interrupted.NO;
        }
        boolean saysInterrupted = false;
        for (Throwable t = e; t != null && !saysInterrupted; t = t.getCause()) {
            saysInterrupted = t instanceof InterruptedException;
        }
        phase(ClientHandle.Phase.IDLE);
        if (saysInterrupted) {
            recorder.complete(acq, OpType.FAIL, null, "interrupted by the nemesis: " + e);
        } else {
            recorder.complete(acq, OpType.INFO, null, "interrupted by the nemesis: " + e);
            process += workers; // an indeterminate op ends its process; the client stays
            handle.process(process);
        }
        if (handle.releaseAfterInterrupt() && !released(client, mode, true)) {
            return Interrupted.RETIRE;
        }
        return Interrupted.GO_ON;
    }

    /** Whether an acquire ended by the nemesis' interrupt, and whether its process must then retire. */
    private enum Interrupted { NO, GO_ON, RETIRE }

    /** Sleeps the cycle's pause; false when interrupted. */
    private static boolean pauseBefore(Cycle cycle) {
        if (cycle.pauseMillis() > 0) {
            try {
                Thread.sleep(cycle.pauseMillis());
            } catch (InterruptedException e) {
                return false;
            }
        }
        return true;
    }

    /**
     * Acquires again until the holder holds {@code depth} times or is refused (what a non-reentrant recipe must do).
     *
     * @return how many times it holds, or -1 when an indeterminate re-acquire means the client must be retired
     */
    private int reenter(LockClient client, int depth, Duration timeout) {
        int held = 1;
        while (held < depth) {
            Op again = recorder.invoke(process, Fn.ACQUIRE, key, params(true));
            try {
                Grant g2 = client.acquire(timeout);
                recorder.complete(again, g2 == null ? OpType.FAIL : OpType.OK, g2 == null ? null : g2.toValue(),
                        g2 == null ? "timeout" : null);
                if (g2 == null) {
                    break;
                }
                held++;
            } catch (Exception e) {
                recorder.complete(again, OpType.INFO, null, String.valueOf(e));
                return -1;
            }
        }
        return held;
    }

    /**
     * Whether a grant of {@code kind} meets its danger point after the hold, just before the protected set is written
     * back (a lease without a token: a pause there lets it run out unseen), rather than before the critical section
     * reads (a fenced grant, whose write the token guards; a session's, whose expiry the pause brings).
     */
    static boolean dangerAfterHold(Grant.Kind kind) {
        return kind == Grant.Kind.LEASED;
    }

    /**
     * Holds for {@code hold}, running the critical section on the protected resources when there are any; false when
     * the critical section's write ended indeterminate, which retires the process.
     */
    private boolean holdOnce(Grant g, Duration hold) {
        try {
            if (resources != null) {
                TransactionalSet store = current == null ? null : current.transactionalSet();
                boolean inDatabase = store == null && data != null;
                if (inDatabase) {
                    store = data.grant(g.czxid(), fencing, this::commitPoint);
                    resources.keptInDatabase();
                }
                try {
                    awaitingCommit = resources.criticalSection(recorder, process, g.czxid(), hold.toMillis(),
                            this::stillSafe, this::dangerPoint, this::validUntil, dangerAfterHold(g.kind()), store,
                            inDatabase ? retry : null);
                } finally {
                    if (inDatabase) {
                        data.abandon(); // a section that stopped before its write lets its transaction go now
                    }
                }
            } else {
                holdWhile(hold.toMillis(), this::stillSafe, this::validUntil);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Resources.IndeterminateWrite e) {
            return false;
        }
        return true;
    }

    /**
     * Downgrades this write hold when the draw says so ({@code downgrade_pct}); {@link Downgrade#REFUSED} when it did
     * not (the write hold then ends as usual). A holder that must stop (its client mode heard of trouble, or the run
     * ends) gives the lock back rather than downgrade: Curator would grant the read lock from what it remembers of a
     * write lock that may be gone.
     */
    private Downgrade maybeDowngrade(LockClient client, Duration acquireTimeout, Duration hold) {
        boolean draw = downgradePct > 0 && downgrades.nextInt(100) < downgradePct;
        LockClient reader = draw && stillSafe() && !Thread.currentThread().isInterrupted() ? client.readSide() : null;
        return reader == null ? Downgrade.REFUSED : downgrade(client, reader, acquireTimeout, hold);
    }

    /** How a downgrade ended. */
    private enum Downgrade { DONE, REFUSED, RETIRE, INTERRUPTED }

    /**
     * The writer, holding the write lock, takes the read lock, releases the write lock, holds the read lock as long
     * as it held the write lock, and releases it: each step an op of its mode, so the checker sees the process hold
     * the read lock alone after the write release (CURATOR-621 lets a queued writer in right then).
     */
    private Downgrade downgrade(LockClient writer, LockClient reader, Duration timeout, Duration hold) {
        Op acq = recorder.invoke(process, Fn.ACQUIRE, key, params(true, "read"));
        Grant g;
        stoppedInDowngrade = false;
        downgrading = Math.max(1, heldSession);
        try {
            g = reader.acquire(timeout);
        } catch (InterruptedException e) {
            recorder.complete(acq, OpType.INFO, null, "interrupted");
            return Downgrade.INTERRUPTED;
        } catch (Exception e) {
            recorder.complete(acq, OpType.INFO, null, String.valueOf(e));
            return Downgrade.RETIRE;
        } finally {
            downgrading = 0;
        }
        if (stoppedInDowngrade) {
            // the write hold ended at the REVOKED recorded meanwhile; the write lock is let go unrecorded (nothing of
            // that hold is left in the history), a read lock granted since is a hold of its own, released as one
            if (g == null) {
                recorder.complete(acq, OpType.FAIL, null, "timeout");
            } else {
                recorder.complete(acq, OpType.OK, g.toValue(), null);
            }
            try {
                writer.releaseOutcome(() -> { });
            } catch (Exception e) {
                return Downgrade.RETIRE; // whatever it left goes with the client's session
            }
            phase(ClientHandle.Phase.IDLE);
            return g == null || released(reader, "read") ? Downgrade.DONE : Downgrade.RETIRE;
        }
        if (g == null) {
            recorder.complete(acq, OpType.FAIL, null, "timeout");
            return Downgrade.REFUSED;
        }
        recorder.complete(acq, OpType.OK, g.toValue(), null);
        if (!released(writer, "write")) {
            unknownWithoutHold = false; // it holds the read lock still
            return Downgrade.RETIRE;
        }
        try {
            holdWhile(hold.toMillis(), this::stillSafe, this::validUntil);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        phase(ClientHandle.Phase.IDLE);
        return released(reader, "read") ? Downgrade.DONE : Downgrade.RETIRE;
    }

    /**
     * Releases through {@code c}, recording the release of {@code mode} (null for none): ok, or fail with {@code
     * not-held} when the node was already gone. False when the release threw: it is then indeterminate, and the
     * caller retires the process.
     */
    private boolean released(LockClient c, String mode) {
        return released(c, mode, true);
    }

    /** As {@link #released(LockClient, String)}; only the outermost release ({@code last}) commits a pending add. */
    private boolean released(LockClient c, String mode, boolean last) {
        Op rel = recorder.invoke(process, Fn.RELEASE, key, params(false, mode));
        try {
            LockClient.Release found = c.releaseOutcome(this::releasePoint);
            boolean gone = found == LockClient.Release.GONE;
            completeRelease(recorder, rel, found);
            if (handle != null) {
                handle.released();
            }
            if (last) {
                if (found == LockClient.Release.UNKNOWN) {
                    committed(OpType.INFO, "the commit's outcome is unknown: the release did not say whether it"
                            + " still held the lock");
                } else {
                    committed(gone ? OpType.FAIL : OpType.OK, "not committed: the release found no hold");
                }
            }
            return true;
        } catch (Exception e) {
            recorder.complete(rel, OpType.INFO, null, String.valueOf(e));
            committed(OpType.INFO, "the commit's outcome is unknown: " + e);
            unknownWithoutHold = last;
            return false;
        }
    }

    /**
     * Completes the release {@code rel} as {@code found} says: ok, fail with {@code not-held} when the lock was gone,
     * or ok with {@code held: unknown} when the lock did not say whether it still held (done, claiming neither).
     */
    public static void completeRelease(Recorder recorder, Op rel, LockClient.Release found) {
        boolean gone = found == LockClient.Release.GONE;
        recorder.complete(rel, gone ? OpType.FAIL : OpType.OK, found == LockClient.Release.UNKNOWN
                ? Map.of("held", "unknown") : null, gone ? LockHolds.NOT_HELD : null);
    }

    /** Completes the add the release just committed (or did not), when the lock keeps its data. */
    private void committed(OpType outcome, String why) {
        Op add = awaitingCommit;
        if (add != null) {
            awaitingCommit = null;
            recorder.complete(add, outcome, outcome == OpType.OK ? add.value() : null,
                    outcome == OpType.OK ? null : why);
        }
    }

    /** How often the worker tries to open a client before it gives up. */
    private int openTries = 3;

    /**
     * A client for the current process, or null when none could be opened ({@link #openTries} tries, a second
     * apart): the worker then stops, saying so on standard error, since it has no op in flight to record it on.
     */
    private LockClient open() {
        for (int i = 1; ; i++) {
            try {
                clientOpenedFor = process;
                current = clients.apply(process);
                return current;
            } catch (RuntimeException e) {
                if (i == openTries) {
                    // one line, whatever the driver's message spans (PostgreSQL's has Detail: lines)
                    String why = "no client after " + openTries + " tries (" + String.valueOf(e.getMessage())
                            .replaceAll("\\s*\\R\\s*", " ") + ")";
                    if (process == worker) {
                        openFailure = why; // before any op: the run cannot start, and its runner says why
                    } else {
                        System.err.println("lockchaos: worker " + worker + " (process " + process + ") stops: " + why);
                    }
                    return null;
                }
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /** Lets the retired process's client go (closing its session) and opens one for the next process, or null. */
    private LockClient retire(LockClient old) {
        boolean keep = keepAfterUnknown && unknownWithoutHold;
        unknownWithoutHold = false;
        if (!keep) {
            old.close();
        }
        phase(ClientHandle.Phase.IDLE);
        process += workers;
        if (handle != null) {
            handle.process(process);
        }
        return keep ? old : open();
    }
}
