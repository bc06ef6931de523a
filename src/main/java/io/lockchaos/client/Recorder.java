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

    public Recorder(HistoryWriter writer) {
        this.writer = writer;
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

    /** Records a connection-state event seen by a process. */
    public Op state(int process, String state, long session) {
        return append(OpType.OK, process, Fn.STATE, null, Map.of("state", state, "session", session), null);
    }

    private synchronized Op append(OpType type, int process, Fn f, String key, Object value, String error) {
        try {
            return writer.append(new Op(-1, System.nanoTime() - start, type, process, f, key, value, error));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
