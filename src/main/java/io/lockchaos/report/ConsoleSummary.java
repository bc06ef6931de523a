package io.lockchaos.report;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Verdict;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The short human summary printed after a check: verdict per checker, the first anomalies, key stats. */
public final class ConsoleSummary {
    /** How many anomalies the console lists; results.json has them all. */
    static final int SHOWN = 10;

    private ConsoleSummary() {
    }

    public static void print(PrintStream out, String source, CheckResult r) {
        out.println(source + ": " + r.verdict().wireName().toUpperCase(Locale.ROOT)
                + (r.checked() ? "" : ": nothing checked: " + r.error() + " in " + source));
        List<CheckResult> parts = r.children().isEmpty() ? List.of(r) : r.children();
        for (CheckResult c : parts) {
            StringBuilder line = new StringBuilder();
            line.append(String.format(Locale.ROOT, "  %-17s %-8s", c.checker(),
                    c.checked() ? c.verdict().wireName() : "-"));
            if (c.error() != null) {
                line.append(" ").append(c.error());
            } else {
                line.append(" ").append(brief(c.stats()));
            }
            out.println(line);
        }
        List<Anomaly> all = r.allAnomalies();
        int shown = 0;
        for (Anomaly a : all) {
            if (shown == SHOWN) {
                out.println("  ... and " + (all.size() - SHOWN) + " more in results.json");
                break;
            }
            out.println("  " + (a.severity().verdict() == Verdict.INVALID ? "!" : "-") + " " + a.kind().wireName()
                    + " (ops " + a.ops() + "): " + a.explanation());
            shown++;
        }
    }

    /** The scalar stats, as {@code name=value} pairs. */
    private static String brief(Map<String, Object> stats) {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, Object> e : stats.entrySet()) {
            Object v = e.getValue();
            if (v instanceof Map || v instanceof List) {
                continue;
            }
            if (s.length() > 0) {
                s.append(' ');
            }
            s.append(e.getKey()).append('=').append(v);
        }
        return s.toString();
    }
}
