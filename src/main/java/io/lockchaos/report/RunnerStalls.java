package io.lockchaos.report;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When the runner itself was frozen, read from a history's {@link Fn#STALL} ops, for results.json, the headline and
 * the stories. The verdict never depends on them: it stands on the history, whoever caused what it shows.
 */
public final class RunnerStalls {
    private RunnerStalls() {
    }

    /** One frozen span on the history's clock. */
    public record Stall(long startNs, long endNs) {
        public long durationNs() {
            return endNs - startNs;
        }

        /** Whether it overlaps the span from {@code fromNs} to {@code toNs}. */
        public boolean crosses(long fromNs, long toNs) {
            return startNs <= toNs && endNs >= fromNs;
        }

        /** JSON-shaped, for results.json. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>(); // a fixed order: results.json is reproducible
            m.put("start_ns", startNs);
            m.put("end_ns", endNs);
            m.put("duration_ns", durationNs());
            return m;
        }

        /** What a story says at the stall's start. */
        public String told() {
            return String.format(Locale.ROOT, "the runner itself was frozen for %.1f s (until %.3f s): its clients"
                    + " could renew nothing meanwhile, so what expired then may be the runner's doing, not the lock"
                    + " service's", durationNs() / 1e9, endNs / 1e9);
        }
    }

    /** The stalls the history records, in order. */
    public static List<Stall> of(History h) {
        List<Stall> out = new ArrayList<>();
        for (Op op : h.ops()) {
            if (op.isNemesis() && op.f() == Fn.STALL) {
                out.add(new Stall(op.longField("start_ns", op.time()), op.longField("end_ns", op.time())));
            }
        }
        return out;
    }

    /** For results.json's {@code runner_stalls}. */
    public static List<Map<String, Object>> toMaps(List<Stall> stalls) {
        return stalls.stream().map(Stall::toMap).toList();
    }

    /** Read back from results.json's {@code runner_stalls} (entries that are not stalls are left out). */
    static List<Stall> fromMaps(Object maps) {
        List<Stall> out = new ArrayList<>();
        if (maps instanceof List<?> l) {
            for (Object o : l) {
                if (o instanceof Map<?, ?> m && m.get("start_ns") instanceof Number s
                        && m.get("end_ns") instanceof Number e) {
                    out.add(new Stall(s.longValue(), e.longValue()));
                }
            }
        }
        return out;
    }

    /**
     * For a headline: {@code the runner itself was frozen for 5.0 s at 6.2 s}, or for several the count, the total
     * and the longest; null when there was none.
     */
    public static String brief(List<Stall> stalls) {
        if (stalls.isEmpty()) {
            return null;
        }
        Stall longest = stalls.get(0);
        long total = 0;
        for (Stall s : stalls) {
            total += s.durationNs();
            if (s.durationNs() > longest.durationNs()) {
                longest = s;
            }
        }
        if (stalls.size() == 1) {
            return String.format(Locale.ROOT, "the runner itself was frozen for %.1f s at %.1f s",
                    longest.durationNs() / 1e9, longest.startNs() / 1e9);
        }
        return String.format(Locale.ROOT, "the runner itself was frozen %d times, %.1f s in all (the longest %.1f s at"
                + " %.1f s)", stalls.size(), total / 1e9, longest.durationNs() / 1e9, longest.startNs() / 1e9);
    }
}
