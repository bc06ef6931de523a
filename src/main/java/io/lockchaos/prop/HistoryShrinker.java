package io.lockchaos.prop;

import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFormatException;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Shrinks a history while keeping it well formed: first drops whole processes, then chunks of op pairs (an invocation
 * with its completion, or a lone state event) from half the history down to one pair, then compresses time so that
 * every op gets the smallest time that keeps the order. Candidates that would not validate are skipped.
 */
public final class HistoryShrinker implements Shrinker<History> {
    @Override
    public Stream<History> candidates(History h) {
        return Stream.of(dropProcesses(h), dropChunks(h), Stream.of(compressTime(h)))
                .flatMap(s -> s)
                .filter(java.util.Objects::nonNull);
    }

    private static Stream<History> dropProcesses(History h) {
        Set<Integer> processes = new LinkedHashSet<>();
        for (Op op : h.ops()) {
            processes.add(op.process());
        }
        if (processes.size() <= 1) {
            return Stream.empty();
        }
        return processes.stream().map(p -> keep(h, op -> op.process() != p));
    }

    /** Units: each invocation with its completion, or a lone op; listed by first position. */
    private static List<int[]> units(History h) {
        List<int[]> units = new ArrayList<>();
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            if (op.type() == OpType.INVOKE) {
                int c = h.completionOf(i);
                units.add(c < 0 ? new int[] {i} : new int[] {i, c});
            } else if (h.invocationOf(i) < 0) {
                units.add(new int[] {i});
            }
        }
        return units;
    }

    private static Stream<History> dropChunks(History h) {
        List<int[]> units = units(h);
        int n = units.size();
        List<int[]> ranges = new ArrayList<>();
        for (int size = Math.max(1, n / 2); size >= 1; size = size == 1 ? 0 : Math.max(1, size / 2)) {
            for (int start = 0; start + size <= n; start += size) {
                ranges.add(new int[] {start, size});
            }
            if (size == 1) {
                break;
            }
        }
        return ranges.stream().map(r -> {
            boolean[] drop = new boolean[h.size()];
            for (int u = r[0]; u < r[0] + r[1]; u++) {
                for (int pos : units.get(u)) {
                    drop[pos] = true;
                }
            }
            List<Op> kept = new ArrayList<>();
            for (int i = 0; i < h.size(); i++) {
                if (!drop[i]) {
                    kept.add(h.get(i));
                }
            }
            return rebuild(kept);
        });
    }

    /** Each op gets the rank of its time: order and ties are kept, gaps vanish. Null when nothing changes. */
    static History compressTime(History h) {
        TreeMap<Long, Long> rank = new TreeMap<>();
        for (Op op : h.ops()) {
            rank.put(op.time(), 0L);
        }
        long r = 0;
        for (var e : rank.entrySet()) {
            e.setValue(r++);
        }
        boolean changed = false;
        List<Op> ops = new ArrayList<>(h.size());
        for (Op op : h.ops()) {
            long t = rank.get(op.time());
            changed |= t != op.time();
            ops.add(op.withTime(t));
        }
        return changed ? rebuild(ops) : null;
    }

    private static History keep(History h, java.util.function.Predicate<Op> p) {
        List<Op> kept = new ArrayList<>();
        for (Op op : h.ops()) {
            if (p.test(op)) {
                kept.add(op);
            }
        }
        return rebuild(kept);
    }

    /** Re-indexes ops 0..n-1 and validates; null when the result is not a well-formed history. */
    private static History rebuild(List<Op> ops) {
        List<Op> out = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            out.add(ops.get(i).withIndex(i));
        }
        try {
            return History.of("<shrunk>", out);
        } catch (HistoryFormatException e) {
            return null;
        }
    }

    /** One op per line, JSONL, for failure messages. */
    public static String describe(History h) {
        StringBuilder s = new StringBuilder();
        for (Op op : h.ops()) {
            s.append(HistoryWriter.toJsonLine(op)).append('\n');
        }
        return s.toString();
    }
}
