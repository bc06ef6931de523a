package io.lockchaos.report;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.api.LockContext;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the timeline draws, extracted from a history as flat rows of numbers so that the page stays small at 100k ops.
 * Pure: the same history and result give the same data.
 *
 * <p>Lane 0 is the nemesis; lanes 1.. are the client processes in ascending order. Times are the history's
 * nanoseconds. Rows are {@code long[]}s whose fields the {@code *_FIELDS} constants name, in the order the page reads
 * them. When there are more acquire and hold windows than {@code cap}, the data keeps those near an anomaly (up to half
 * the cap) and then the earliest, and {@link #note} says so.
 *
 * @param lanes lane labels
 * @param waits acquire invocation to completion, one row per acquire
 * @param holds acquire ok to release completion, one row per grant
 * @param states connection-state events
 * @param nemesis every nemesis op (invocation to completion), with its label
 * @param faults fault periods
 * @param anomalies the result's anomalies, with the lane and time of each op they cite
 * @param windows acquire and hold windows in the history, before the cap
 * @param note why the data is incomplete, or null
 */
public record TimelineData(List<String> lanes, List<long[]> waits, List<long[]> holds, List<long[]> states,
                           List<NemesisOp> nemesis, List<FaultPeriods.Period> faults, List<Marked> anomalies,
                           long start, long end, int windows, String note) {
    public static final String WAIT_FIELDS = "lane start end outcome index";
    public static final String HOLD_FIELDS = "lane start releaseInvoked end flags index";
    public static final String STATE_FIELDS = "lane time code index";
    /** Outcome codes of waits. */
    public static final int OK = 0, FAIL = 1, INFO = 2;
    /** Hold flags. */
    public static final int READ = 1, RELEASE_FAILED = 2, RELEASE_UNKNOWN = 4, NEVER_RELEASED = 8, REVOKED = 16;
    /** State codes. */
    public static final List<String> STATES = List.of("SUSPENDED", "LOST", "RECONNECTED", "REVOKED");

    /** A nemesis op from invocation to completion. */
    public record NemesisOp(long start, long end, String label, String outcome, long index) {
    }

    /**
     * A lane's label: {@code p N} for a worker, {@code p N txn} for its transaction's ops; the final phase's
     * processes say what they are, {@code probe N} (an
     * acquire by a fresh client after the heal) or {@code final read N}.
     */
    static String laneLabel(int process, boolean doesMoreThanRead) {
        if (process >= Op.FIRST_TRANSACTION_PROCESS && process < Op.FIRST_FINAL_PROCESS) {
            return "p " + Op.holderOf(process) + " txn";
        }
        if (process < Op.FIRST_FINAL_PROCESS) {
            return "p " + process;
        }
        return (doesMoreThanRead ? "probe " : "final read ") + process;
    }

    /** An anomaly with the lane and time of each op it cites ({@code marks}: lane, time, index triples). */
    public record Marked(Anomaly anomaly, long start, long end, long[] marks) {
    }

    /** Extracts the timeline of {@code h}, drawing at most {@code cap} acquire and hold windows. */
    public static TimelineData of(History h, CheckResult result, int cap) {
        TreeSet<Integer> procs = new TreeSet<>();
        for (Op op : h.ops()) {
            if (!op.isNemesis()) {
                procs.add(op.process());
            }
        }
        List<String> lanes = new ArrayList<>(List.of("nemesis"));
        Map<Integer, Integer> laneOf = new HashMap<>();
        laneOf.put(Op.NEMESIS, 0);
        java.util.Set<Integer> finalWriters = new java.util.HashSet<>(); // final-phase processes that do more than read
        for (Op op : h.ops()) {
            if (op.process() >= Op.FIRST_FINAL_PROCESS && op.f() != Fn.READ) {
                finalWriters.add(op.process());
            }
        }
        for (int p : procs) {
            laneOf.put(p, lanes.size());
            lanes.add(laneLabel(p, finalWriters.contains(p)));
        }
        long end = h.endTime();
        List<long[]> waits = new ArrayList<>();
        List<long[]> holds = new ArrayList<>();
        List<long[]> states = new ArrayList<>();
        List<NemesisOp> nemesis = new ArrayList<>();
        // Grants not yet released, per process and key; a release ends the latest (reentrant holds nest).
        Map<String, Deque<long[]>> held = new HashMap<>();
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            int lane = laneOf.get(op.process());
            int c = h.completionOf(i);
            Op done = c < 0 ? null : h.get(c);
            long doneAt = done == null ? end : done.time();
            if (op.f() == Fn.STATE) {
                int code = STATES.indexOf(op.stringField("state"));
                states.add(new long[] {lane, op.time(), code < 0 ? STATES.size() : code, op.index()});
                if (LockContext.REVOKED.equals(op.stringField("state"))) {
                    // the library took the process's holds away: each ends here, as the checkers end it
                    for (Map.Entry<String, Deque<long[]>> e : held.entrySet()) {
                        if (e.getKey().startsWith(op.process() + " ")) {
                            for (long[] hold : e.getValue()) {
                                hold[2] = op.time();
                                hold[3] = op.time();
                                hold[4] = (hold[4] & READ) | REVOKED;
                            }
                            e.getValue().clear();
                        }
                    }
                }
            } else if (op.isNemesis() && op.type() == OpType.INVOKE) {
                nemesis.add(new NemesisOp(op.time(), doneAt, op.f().wireName(),
                        done == null ? "info" : done.type().wireName(), op.index()));
            } else if (op.f() == Fn.ACQUIRE && op.type() == OpType.INVOKE) {
                OpType out = h.outcome(i);
                waits.add(new long[] {lane, op.time(), doneAt, out == OpType.OK ? OK : out == OpType.FAIL ? FAIL : INFO,
                        op.index()});
            } else if (op.f() == Fn.ACQUIRE && op.type() == OpType.OK) {
                Op inv = h.get(h.invocationOf(i));
                long flags = "read".equals(inv.stringField("mode")) ? READ : 0;
                long[] hold = {lane, op.time(), -1, end, flags | NEVER_RELEASED, inv.index()};
                holds.add(hold);
                held.computeIfAbsent(op.process() + " " + op.key(), k -> new ArrayDeque<>()).push(hold);
            } else if (op.f() == Fn.RELEASE && op.type() == OpType.INVOKE) {
                Deque<long[]> stack = held.get(op.process() + " " + op.key());
                if (stack != null && !stack.isEmpty()) {
                    long[] hold = stack.pop();
                    hold[2] = op.time();
                    hold[3] = doneAt;
                    OpType out = h.outcome(i);
                    hold[4] = (hold[4] & READ) | (out == OpType.FAIL ? RELEASE_FAILED : out == OpType.INFO
                            ? RELEASE_UNKNOWN : 0);
                }
            }
        }
        List<Marked> marked = new ArrayList<>();
        for (Anomaly a : result.allAnomalies()) {
            marked.add(mark(h, a, laneOf));
        }
        int windows = waits.size() + holds.size();
        String note = null;
        if (windows > cap) {
            note = capTo(waits, holds, marked, cap, end - (h.size() == 0 ? 0 : h.get(0).time()));
        }
        long start = h.size() == 0 ? 0 : h.get(0).time();
        return new TimelineData(lanes, waits, holds, states, nemesis, FaultPeriods.of(h), marked, start, end, windows,
                note);
    }

    private static Marked mark(History h, Anomaly a, Map<Integer, Integer> laneOf) {
        List<long[]> marks = new ArrayList<>();
        for (long index : a.ops()) {
            int pos = position(h, index);
            if (pos >= 0) {
                Op op = h.get(pos);
                marks.add(new long[] {laneOf.get(op.process()), op.time(), index});
            }
        }
        long[] flat = new long[marks.size() * 3];
        for (int i = 0; i < marks.size(); i++) {
            System.arraycopy(marks.get(i), 0, flat, i * 3, 3);
        }
        long end = a.end() == Long.MAX_VALUE ? h.endTime() : a.end();
        return new Marked(a, a.start(), end, flat);
    }

    /** The position of the op with index {@code index} (indexes increase strictly), or -1. */
    static int position(History h, long index) {
        int lo = 0;
        int hi = h.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long x = h.get(mid).index();
            if (x < index) {
                lo = mid + 1;
            } else if (x > index) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /**
     * Keeps at most {@code cap} windows: those near an anomaly (up to half the cap), then the earliest. Returns the
     * note for the page.
     */
    private static String capTo(List<long[]> waits, List<long[]> holds, List<Marked> anomalies, int cap, long span) {
        List<long[]> all = new ArrayList<>(waits.size() + holds.size());
        all.addAll(waits);
        all.addAll(holds);
        all.sort(Comparator.comparingLong(w -> w[1]));
        // Near: within the anomaly's own length, or a thousandth of the history, of its window.
        long[][] ranges = new long[anomalies.size()][];
        for (int i = 0; i < ranges.length; i++) {
            Marked m = anomalies.get(i);
            long margin = Math.max(m.end() - m.start(), span / 1000);
            ranges[i] = new long[] {m.start() - margin, m.end() + margin};
        }
        Set<long[]> keep = Collections.newSetFromMap(new IdentityHashMap<>());
        for (long[] w : all) {
            if (keep.size() >= cap / 2) {
                break;
            }
            long wEnd = w.length == 6 ? w[3] : w[2];
            for (long[] r : ranges) {
                if (w[1] <= r[1] && wEnd >= r[0]) {
                    keep.add(w);
                    break;
                }
            }
        }
        int near = keep.size();
        long upTo = 0;
        for (long[] w : all) {
            if (keep.size() >= cap) {
                break;
            }
            if (keep.add(w)) {
                upTo = w[1];
            }
        }
        int total = all.size();
        waits.removeIf(w -> !keep.contains(w));
        holds.removeIf(w -> !keep.contains(w));
        String shown = near == 0 ? "every window" : String.format(Locale.ROOT,
                "the %,d near the anomalies and every window", near);
        return String.format(Locale.ROOT, "This history has %,d acquire and hold windows, more than the"
                + " page draws (%,d). It shows %s that starts before %.3f s."
                + " The plots and results.json cover the whole history.", total, cap, shown, upTo / 1e9);
    }

    /** Rows as one flat array, for the page. */
    static long[] flat(List<long[]> rows, int stride) {
        long[] out = new long[rows.size() * stride];
        for (int i = 0; i < rows.size(); i++) {
            System.arraycopy(rows.get(i), 0, out, i * stride, stride);
        }
        return out;
    }

    @Override
    public String toString() {
        return "TimelineData[lanes=" + lanes.size() + ", waits=" + waits.size() + ", holds=" + holds.size()
                + ", faults=" + faults.size() + ", anomalies=" + anomalies.size() + ", note=" + note + "]";
    }
}
