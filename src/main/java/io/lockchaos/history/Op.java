package io.lockchaos.history;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One operation, as Jepsen records it.
 *
 * @param index position in the history, strictly increasing
 * @param time nanoseconds since the test started (monotonic clock)
 * @param type invoke, ok, fail or info
 * @param process the logical process; {@link #NEMESIS} for the nemesis and runner markers
 * @param f what the op does
 * @param key the lock path or resource the op acts on; may be null
 * @param value JSON-shaped data: null, Long, Double, String, Boolean, List or Map with String keys; from EDN also a
 *     Set, a Character or one of {@link EdnValues}
 * @param error why a fail or info happened; null otherwise
 */
public record Op(long index, long time, OpType type, int process, Fn f, String key, Object value, String error) {
    /** The process number of nemesis and runner ops, written as {@code "nemesis"}. */
    public static final int NEMESIS = -1;
    /**
     * The first process number of a run's final phase (its probes and its final reader), far above any worker's, so
     * reports can tell them from the workers.
     */
    public static final int FIRST_FINAL_PROCESS = 1_000_000;
    /**
     * Added to a holder's process number for its transaction's ops: the add a lock commits with its release (a
     * {@link io.lockchaos.api.TransactionalSet}) spans that release, and one process cannot have two ops at once.
     */
    public static final int FIRST_TRANSACTION_PROCESS = 500_000;

    /** The process that records the transaction of the holder {@code process}. */
    public static int transactionOf(int process) {
        if (process < 0 || process >= FIRST_TRANSACTION_PROCESS) {
            throw new IllegalArgumentException("process " + process + " has no transaction process");
        }
        return FIRST_TRANSACTION_PROCESS + process;
    }

    /** The holder whose transaction {@code process} records, or {@code process} itself for any other process. */
    public static int holderOf(int process) {
        return process >= FIRST_TRANSACTION_PROCESS && process < FIRST_FINAL_PROCESS
                ? process - FIRST_TRANSACTION_PROCESS : process;
    }

    public Op {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(f, "f");
    }

    public boolean isNemesis() {
        return process == NEMESIS;
    }

    public Op withIndex(long newIndex) {
        return new Op(newIndex, time, type, process, f, key, value, error);
    }

    public Op withTime(long newTime) {
        return new Op(index, newTime, type, process, f, key, value, error);
    }

    public Op withProcess(int newProcess) {
        return new Op(index, time, type, newProcess, f, key, value, error);
    }

    /** Returns a named field of a map value, or null when the value is not a map or lacks it. */
    public Object field(String name) {
        return value instanceof Map<?, ?> m ? m.get(name) : null;
    }

    /** Returns a numeric field of a map value, or {@code dflt} when it is absent or not a number. */
    public long longField(String name, long dflt) {
        return field(name) instanceof Number n ? n.longValue() : dflt;
    }

    /** Returns a string field of a map value (a keyword's or symbol's name, from EDN), or null. */
    public String stringField(String name) {
        return EdnValues.nameOf(field(name));
    }

    /** Returns a boolean field of a map value, or {@code dflt}. */
    public boolean boolField(String name, boolean dflt) {
        return field(name) instanceof Boolean b ? b : dflt;
    }

    /** Returns a list field of a map value, or an empty list. */
    public List<?> listField(String name) {
        return field(name) instanceof List<?> l ? l : List.of();
    }

    /** Starts an op of the given type; the writer or {@link History#of} assigns the index. */
    public static Op of(OpType type, long time, int process, Fn f, String key, Object value) {
        return new Op(-1, time, type, process, f, key, value, null);
    }
}
