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

    /**
     * A map key for a name: a keyword with dashes for underscores when the name is a plain identifier ({@code
     * overlap_ns} is {@code :overlap-ns}), else the name as a string ({@code "/lock/a_b"}), so that two different
     * names never become one key, which EDN readers refuse.
     */
    static String keyword(String name) {
        if (name.matches("[a-z][a-z0-9]*([_-][a-z0-9]+)*")) {
            return ":" + name.replace('_', '-');
        }
        StringBuilder s = new StringBuilder();
        value(s, name);
        return s.toString();
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
                    default -> {
                        // control characters and surrogates (a lone one cannot even be written as UTF-8) escaped
                        if (c < 0x20 || Character.isSurrogate(c)) {
                            s.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
                        } else {
                            s.append(c);
                        }
                    }
                }
            }
            s.append('"');
        } else if (v instanceof Map<?, ?> m) {
            // keys as keywords, unless two of them would become one (a_b and a-b): then all as strings
            List<String> keys = m.keySet().stream().map(k -> keyword(String.valueOf(k))).toList();
            boolean distinct = keys.stream().distinct().count() == keys.size();
            s.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                s.append(sep);
                if (distinct) {
                    s.append(keyword(String.valueOf(e.getKey())));
                } else {
                    value(s, String.valueOf(e.getKey()));
                }
                s.append(' ');
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
        } else if (v instanceof Number || v instanceof Boolean) {
            s.append(v);
        } else {
            value(s, String.valueOf(v)); // anything else as its text, quoted: never bare words
        }
    }
}
