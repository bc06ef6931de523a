package io.lockchaos.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * An immutable, validated history. Every client invocation is paired with the completion of the same process that
 * follows it, or with nothing when the history ends first (treated as {@code info}). {@link Fn#STATE} ops are
 * unpaired observations of a process (connection-state events), and {@link Fn#STALL} ops unpaired observations of the
 * runner; other nemesis ops pair like client ops but never retire the nemesis.
 *
 * <p>Positions (0..size-1) address ops inside this object; {@link Op#index()} is what reports cite.
 */
public final class History {
    private final List<Op> ops;
    private final int[] partner;
    private final List<String> warnings;
    private final Map<Object, Object> derived = new ConcurrentHashMap<>();

    private History(List<Op> ops, int[] partner, List<String> warnings) {
        this.ops = ops;
        this.partner = partner;
        this.warnings = warnings;
    }

    /**
     * Validates ops in order and builds the history. Ops with index -1 get their position as index.
     *
     * The order of the ops is the real-time order (Jepsen's history appender is the serialization point): a time
     * that goes backwards between lines is accepted with one warning, since times only measure durations.
     *
     * @throws HistoryFormatException naming {@code source} and the 1-based op number, when the ops break Jepsen's
     *     rules: completion without invocation, two invocations in flight for one process, an op after the process
     *     was retired by info, a completion whose f differs, or a non-increasing index
     */
    public static History of(String source, List<Op> ops) throws HistoryFormatException {
        return build(source, ops, null, List.of());
    }

    /** Like {@link #of} for ops built by code that knows them to be well formed; throws IllegalArgumentException. */
    public static History ofValid(List<Op> ops) {
        try {
            return of("<memory>", ops);
        } catch (HistoryFormatException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    static History build(String source, List<Op> in, long[] lineNumbers, List<String> warnings)
            throws HistoryFormatException {
        int n = in.size();
        List<Op> ops = new ArrayList<>(n);
        int[] partner = new int[n];
        Arrays.fill(partner, -1);
        ProcessSlots inFlight = new ProcessSlots();
        Map<Integer, Long> retiredAt = new HashMap<>();
        long lastIndex = Long.MIN_VALUE;
        long lastTime = Long.MIN_VALUE;
        boolean timeWarned = false;
        warnings = new ArrayList<>(warnings);
        for (int i = 0; i < n; i++) {
            Op op = in.get(i);
            long line = lineNumbers == null ? i + 1 : lineNumbers[i];
            if (op.index() < 0) {
                op = op.withIndex(i);
            }
            if (op.index() <= lastIndex) {
                throw new HistoryFormatException(source, line, "index: " + op.index()
                        + " does not increase (previous " + lastIndex + ")");
            }
            if (op.time() < lastTime && !timeWarned) {
                // Jepsen samples time per worker thread: it can dip between lines. Position is the order; say so once.
                timeWarned = true;
                warnings.add(source + ":" + line + ": time " + op.time() + " is earlier than the line before ("
                        + lastTime + "); ordering by position, using time only for durations");
            }
            lastIndex = op.index();
            lastTime = op.time();
            int p = op.process();
            if (op.f().unpaired()) {
                if (op.type() != OpType.OK) {
                    throw new HistoryFormatException(source, line, "type: a " + op.f().wireName()
                            + " event must have type ok, not " + op.type().wireName());
                }
                if (op.f() == Fn.STALL && p != Op.NEMESIS) {
                    // a stall is the runner's own: checkers skip nemesis ops, and must not take it for a client's
                    throw new HistoryFormatException(source, line, "process: a stall is the runner's and must be"
                            + " \"nemesis\", not " + p);
                }
            } else {
                Long retired = retiredAt.get(p);
                if (retired != null) {
                    throw new HistoryFormatException(source, line, "process: " + p
                            + " was retired by the info completion at line " + retired + " and may not act again");
                }
                int open = inFlight.get(p);
                if (op.type() == OpType.INVOKE) {
                    if (open >= 0) {
                        throw new HistoryFormatException(source, line, "type: process " + processName(p)
                                + " invokes while its invocation at index " + ops.get(open).index() + " is in flight");
                    }
                    inFlight.put(p, i);
                } else {
                    if (open < 0) {
                        throw new HistoryFormatException(source, line, "type: " + op.type().wireName()
                                + " completion of process " + processName(p) + " has no invocation in flight");
                    }
                    Op inv = ops.get(open);
                    if (inv.f() != op.f()) {
                        throw new HistoryFormatException(source, line, "f: completion is " + op.f().wireName()
                                + " but the invocation at index " + inv.index() + " is " + inv.f().wireName());
                    }
                    inFlight.put(p, -1);
                    partner[open] = i;
                    partner[i] = open;
                    if (op.type() == OpType.INFO && p != Op.NEMESIS) {
                        retiredAt.put(p, line);
                    }
                }
            }
            ops.add(op);
        }
        return new History(Collections.unmodifiableList(ops), partner, List.copyOf(warnings));
    }

    /**
     * Process to position of its invocation in flight (-1: none), without boxing: a HashMap of Integers was a fifth of
     * building a million-op history.
     */
    private static final class ProcessSlots {
        private int[] keys = new int[64];
        private int[] values = new int[64];
        private boolean[] used = new boolean[64];
        private int size;

        int get(int process) {
            int mask = keys.length - 1;
            for (int i = mix(process) & mask; used[i]; i = (i + 1) & mask) {
                if (keys[i] == process) {
                    return values[i];
                }
            }
            return -1;
        }

        void put(int process, int position) {
            int mask = keys.length - 1;
            int i = mix(process) & mask;
            while (used[i] && keys[i] != process) {
                i = (i + 1) & mask;
            }
            if (!used[i]) {
                used[i] = true;
                keys[i] = process;
                if (full(++size, keys.length)) {
                    values[i] = position;
                    grow();
                    return;
                }
            }
            values[i] = position;
        }

        private void grow() {
            int[] k = keys;
            int[] v = values;
            boolean[] u = used;
            keys = new int[k.length * 2];
            values = new int[k.length * 2];
            used = new boolean[k.length * 2];
            size = 0;
            for (int i = 0; i < k.length; i++) {
                if (u[i]) {
                    put(k[i], v[i]);
                }
            }
        }

        /** Whether the table should grow: only speed depends on it, so mutation testing leaves it out. */
        private static boolean full(int size, int slots) {
            return size * 2 > slots;
        }

        private static int mix(int x) {
            return x * 0x9E3779B9 >>> 7;
        }
    }

    static String processName(int p) {
        return p == Op.NEMESIS ? "nemesis" : Integer.toString(p);
    }

    public List<Op> ops() {
        return ops;
    }

    public int size() {
        return ops.size();
    }

    public Op get(int position) {
        return ops.get(position);
    }

    /** Returns the position of the completion of the invocation at {@code position}, or -1 if it has none. */
    public int completionOf(int position) {
        return ops.get(position).type() == OpType.INVOKE ? partner[position] : -1;
    }

    /** Returns the position of the invocation that the completion at {@code position} completes, or -1. */
    public int invocationOf(int position) {
        return ops.get(position).type() == OpType.INVOKE ? -1 : partner[position];
    }

    /**
     * Returns the effective completion type of an invocation: its completion's type, or {@code INFO} when the
     * history ended with it in flight.
     */
    public OpType outcome(int invocation) {
        int c = completionOf(invocation);
        return c == -1 ? OpType.INFO : ops.get(c).type();
    }

    /** Time of the last op, or 0 for an empty history. */
    public long endTime() {
        return ops.isEmpty() ? 0 : ops.get(ops.size() - 1).time();
    }

    /** What the reader tolerated (for example a truncated last line). */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * Returns a value derived from this history, computing it once per key. Checkers use this to share analyses
     * (lock holds, say) without recomputing them; {@code compute} must be a pure function of the history.
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, Function<History, T> compute) {
        Object v = derived.get(key);
        if (v == null) {
            v = compute.apply(this);
            Object prev = derived.putIfAbsent(key, v);
            if (prev != null) {
                v = prev;
            }
        }
        return (T) v;
    }
}
