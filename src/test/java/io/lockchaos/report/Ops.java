package io.lockchaos.report;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A tiny history builder for report tests: ops get their position as index. */
final class Ops {
    private final List<Op> ops = new ArrayList<>();

    Ops op(OpType type, long time, int process, Fn f, String key, Object value) {
        ops.add(Op.of(type, time, process, f, key, value));
        return this;
    }

    /** A nemesis invocation at {@code t} and its info completion at {@code t + 1}, as Jepsen records them. */
    Ops nemesis(long t, Fn f, Map<String, Object> value) {
        op(OpType.INVOKE, t, Op.NEMESIS, f, null, value);
        return op(OpType.INFO, t + 1, Op.NEMESIS, f, null, value);
    }

    Ops nemesisFailed(long t, Fn f, Map<String, Object> value) {
        op(OpType.INVOKE, t, Op.NEMESIS, f, null, value);
        return op(OpType.FAIL, t + 1, Op.NEMESIS, f, null, value);
    }

    History build() {
        return History.ofValid(ops);
    }
}
