package io.lockchaos.client;

import io.lockchaos.history.Fn;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Records ops as they happen. Time is nanoseconds since the recorder was made, on the monotonic clock, stamped under
 * the same lock as the append, so time never goes backwards in file order. Thread-safe.
 */
public final class Recorder {
    private final HistoryWriter writer;
    private final long start = System.nanoTime();
    private long index;
    private long grants;
    /** {@code index}, readable without the lock: a progress line must never wait for a recording thread. */
    private volatile long recorded;
    private volatile IOException failure;
    private java.util.function.Consumer<Op> observer = op -> { };

    /** A recorder that appends to {@code writer}. */
    public Recorder(HistoryWriter writer) {
        this.writer = writer;
    }

    /**
     * A recorder that stamps and counts ops but writes nothing: the baseline for measuring what recording costs.
     */
    public static Recorder discarding() {
        return new Recorder(null);
    }

    /**
     * Shows every op to {@code o} as it is recorded, in order, from the recording thread and under the recording
     * lock: {@code o} must be quick and must never wait for anything that may itself wait for this recorder.
     */
    public synchronized Recorder observe(java.util.function.Consumer<Op> o) {
        this.observer = o;
        return this;
    }

    /** How many ops were recorded so far (without taking the recording lock). */
    public long ops() {
        return recorded;
    }

    /** How many acquires completed ok so far. */
    public synchronized long grants() {
        return grants;
    }

    /** Records an invocation and returns it as written. */
    public Op invoke(int process, Fn f, String key, Object value) {
        return append(OpType.INVOKE, process, f, key, value, null);
    }

    /** Records the completion of {@code invocation}: same process and f, type ok, fail or info. */
    public Op complete(Op invocation, OpType type, Object value, String error) {
        if (type == OpType.INVOKE) {
            throw new IllegalArgumentException("a completion cannot be an invocation");
        }
        return append(type, invocation.process(), invocation.f(), invocation.key(), value, error);
    }

    /**
     * Records a connection-state event seen by a process; null when the history can no longer be written (the event
     * comes on a client library's thread, which is no place to fail: the runner stops the run and says why).
     */
    public Op state(int process, String state, long session) {
        return state(process, state, session, null);
    }

    /** {@link #state(int, String, long)} with why it came ({@code why}, recorded when not null: a revocation's). */
    public Op state(int process, String state, long session, String why) {
        return state(process, state, session, why, 0);
    }

    /**
     * {@link #state(int, String, long, String)} with the server the session is connected to now ({@code server}, its
     * position in the client's connect string from 1, recorded when above 0).
     */
    public Op state(int process, String state, long session, String why, int server) {
        Map<String, Object> value = new java.util.LinkedHashMap<>();
        value.put("state", state);
        value.put("session", session);
        if (why != null) {
            value.put("why", why);
        }
        if (server > 0) {
            value.put("server", server);
        }
        try {
            return append(OpType.OK, process, Fn.STATE, null, value, null);
        } catch (Stopped e) {
            return null;
        }
    }

    /** Why the history could no longer be written, or null while it can. */
    public IOException failure() {
        return failure;
    }

    /**
     * Thrown by every recording once the history could not be written: the worker or nemesis that meets it ends, and
     * the runner stops the run with its message (one line naming the file and the cause).
     */
    public static final class Stopped extends UncheckedIOException {
        public Stopped(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Now, on the history's clock (nanoseconds since this recorder was made). */
    public long now() {
        return System.nanoTime() - start;
    }

    /**
     * Records that the runner itself was frozen from {@code startNs} to {@code endNs} (the history's clock): an
     * unpaired {@link Fn#STALL} of the nemesis, the runner's own marker.
     */
    public Op stall(long startNs, long endNs) {
        Map<String, Object> v = new java.util.LinkedHashMap<>(); // a fixed order: the line reads start, end, length
        v.put("start_ns", startNs);
        v.put("end_ns", endNs);
        v.put("duration_ns", endNs - startNs);
        return append(OpType.OK, Op.NEMESIS, Fn.STALL, null, v, null);
    }

    private synchronized Op append(OpType type, int process, Fn f, String key, Object value, String error) {
        if (type == OpType.OK && f == Fn.ACQUIRE) {
            grants++;
        }
        Op op = new Op(index++, System.nanoTime() - start, type, process, f, key, value, error);
        recorded = index;
        if (writer != null) {
            try {
                op = writer.append(op);
            } catch (IOException e) {
                failure = e;
                throw new Stopped(e);
            }
        }
        observer.accept(op);
        return op;
    }
}
