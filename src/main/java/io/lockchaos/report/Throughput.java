package io.lockchaos.report;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * How fast a run went, from its history: granted acquires per second over the workers' phase (up to the heal marker)
 * and the acquire latency (invocation to ok) at p50, p99 and max, from an HdrHistogram; and what waiting cost the lock
 * service per grant, where the grants say: watch notifications (the naive ZooKeeper locks) or tries (the polling
 * locks count every request since the client's previous grant, so timed-out acquires are paid for too).
 */
public final class Throughput {
    private Throughput() {
    }

    public static Map<String, Object> of(History h) {
        Histogram latency = new Histogram(3_600_000_000_000L, 3);
        long first = -1;
        long end = h.endTime();
        long grants = 0;
        long counted = 0;
        long notifications = 0;
        long polled = 0;
        long tries = 0;
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            if (op.isNemesis() && op.f() == Fn.HEAL) {
                end = op.time();
                break;
            }
            if (first < 0 && !op.isNemesis()) {
                first = op.time();
            }
            if (op.f() == Fn.ACQUIRE && op.type() == OpType.INVOKE && h.outcome(i) == OpType.OK) {
                grants++;
                Op ok = h.get(h.completionOf(i));
                latency.recordValue(Math.max(0, ok.time() - op.time()));
                long n = ok.longField("notifications", -1);
                if (n >= 0) {
                    counted++;
                    notifications += n;
                }
                long t = ok.longField("tries", -1);
                if (t >= 0) {
                    polled++;
                    tries += t;
                }
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        double seconds = first < 0 ? 0 : (end - first) / 1e9;
        m.put("grants", grants);
        m.put("seconds", Math.round(seconds * 1000) / 1000.0);
        m.put("acquires_per_s", seconds <= 0 ? 0.0 : Math.round(grants / seconds * 10) / 10.0);
        m.put("latency_p50_ms", latency.getTotalCount() == 0 ? 0.0 : latency.getValueAtPercentile(50) / 1e6);
        m.put("latency_p99_ms", latency.getTotalCount() == 0 ? 0.0 : latency.getValueAtPercentile(99) / 1e6);
        m.put("latency_max_ms", latency.getTotalCount() == 0 ? 0.0 : latency.getMaxValue() / 1e6);
        if (counted > 0) {
            m.put("watch_notifications_per_grant", Math.round(100.0 * notifications / counted) / 100.0);
        }
        if (polled > 0) {
            m.put("tries_per_grant", Math.round(100.0 * tries / polled) / 100.0);
        }
        return m;
    }

    /** One line for the console. */
    public static String line(Map<String, Object> t) {
        Object herd = t.get("watch_notifications_per_grant");
        Object tries = t.get("tries_per_grant");
        return (herd == null ? "" : "  watch notifications per grant: " + herd + "\n")
                + (tries == null ? "" : "  tries of the lock service per grant: " + tries + "\n")
                + String.format(Locale.ROOT, "  throughput: %s grants in %s s = %s acquires/s; acquire latency p50"
                + " %.1f ms, p99 %.1f ms, max %.1f ms", t.get("grants"), t.get("seconds"), t.get("acquires_per_s"),
                (Double) t.get("latency_p50_ms"), (Double) t.get("latency_p99_ms"), (Double) t.get("latency_max_ms"));
    }
}
