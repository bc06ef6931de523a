package io.lockchaos.report;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Verdict;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A check result as a Jepsen results map, so lockchaos can stand where Knossos stands in an existing pipeline: {@code
 * :valid?} is {@code true}, {@code false} or {@code :unknown} as Jepsen's checkers say it, and every checker's result
 * is a map under its name, composed results nesting like Jepsen's {@code checker/compose}. A leaf adds {@code :stats},
 * {@code :anomaly-types} and {@code :anomalies} (kind, severity, key, ops, window, explanation, details). Stats and
 * detail keys become keywords with dashes ({@code overlap_ns} is {@code :overlap-ns}).
 */
public final class ResultsEdn {
    private ResultsEdn() {
    }

    /** The results map as EDN text, ending with a newline. */
    public static String of(CheckResult r) {
        StringBuilder s = new StringBuilder();
        map(s, r, 0);
        return s.append('\n').toString();
    }

    private static void map(StringBuilder s, CheckResult r, int depth) {
        String pad = "\n" + " ".repeat(depth + 1);
        s.append("{:valid? ").append(valid(r.verdict()));
        if (!r.checked()) {
            s.append(pad).append(":checked? false");
        }
        if (r.error() != null) {
            s.append(pad).append(":error ");
            value(s, r.error());
        }
        if (r.children().isEmpty()) {
            s.append(pad).append(":stats ");
            value(s, r.stats());
            s.append(pad).append(":anomaly-types [");
            String sep = "";
            for (String kind : r.anomalies().stream().map(a -> a.kind().wireName()).distinct().toList()) {
                s.append(sep).append(':').append(kind);
                sep = " ";
            }
            s.append(']').append(pad).append(":anomalies [");
            sep = "";
            for (Anomaly a : r.anomalies()) {
                s.append(sep);
                anomaly(s, a);
                sep = pad + "             ";
            }
            s.append(']');
        }
        for (CheckResult c : r.children()) {
            s.append(pad).append(keyword(c.checker())).append(' ');
            map(s, c, depth + 2 + c.checker().length());
        }
        s.append('}');
    }

    private static void anomaly(StringBuilder s, Anomaly a) {
        s.append("{:kind :").append(a.kind().wireName()).append(" :severity :")
                .append(a.severity().name().toLowerCase(Locale.ROOT));
        if (a.key() != null) {
            s.append(" :key ");
            value(s, a.key());
        }
        s.append(" :ops ");
        value(s, a.ops());
        s.append(" :start ").append(a.start()).append(" :end ").append(a.end()).append(" :explanation ");
        value(s, a.explanation());
        if (!a.details().isEmpty()) {
            s.append(" :details ");
            value(s, a.details());
        }
        s.append('}');
    }

    static String valid(Verdict v) {
        return v == Verdict.VALID ? "true" : v == Verdict.INVALID ? "false" : ":unknown";
    }

    /** A keyword for a name: letters, digits and {@code -_.?!*+<>=} kept, underscores as dashes, others as dashes. */
    static String keyword(String name) {
        StringBuilder k = new StringBuilder(":");
        for (char c : name.toCharArray()) {
            k.append(Character.isLetterOrDigit(c) || "-.?!*+<>=".indexOf(c) >= 0 ? c : '-');
        }
        if (k.length() == 1 || Character.isDigit(k.charAt(1))) {
            k.insert(1, '_');
        }
        return k.toString();
    }

    /** A JSON-shaped value as EDN: maps with keyword keys, lists as vectors, strings escaped, null as nil. */
    static void value(StringBuilder s, Object v) {
        if (v == null) {
            s.append("nil");
        } else if (v instanceof String str) {
            s.append('"');
            for (char c : str.toCharArray()) {
                switch (c) {
                    case '"' -> s.append("\\\"");
                    case '\\' -> s.append("\\\\");
                    case '\n' -> s.append("\\n");
                    case '\r' -> s.append("\\r");
                    case '\t' -> s.append("\\t");
                    default -> s.append(c);
                }
            }
            s.append('"');
        } else if (v instanceof Map<?, ?> m) {
            s.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                s.append(sep).append(keyword(String.valueOf(e.getKey()))).append(' ');
                value(s, e.getValue());
                sep = ", ";
            }
            s.append('}');
        } else if (v instanceof List<?> l) {
            s.append('[');
            String sep = "";
            for (Object o : l) {
                s.append(sep);
                value(s, o);
                sep = " ";
            }
            s.append(']');
        } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            s.append(d.isNaN() ? "##NaN" : d > 0 ? "##Inf" : "##-Inf");
        } else {
            s.append(v);
        }
    }
}
