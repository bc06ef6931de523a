package io.lockchaos.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The tutorial's table with every claim beside its measurement, as Markdown and as an HTML page. Text only: what a
 * cell says is decided here from a {@link ColumnResult}, once for both formats.
 */
public final class Table {
    private final Plan plan;
    private final List<ColumnResult> results;
    private final String when;

    public Table(Plan plan, List<ColumnResult> results, String when) {
        this.plan = plan;
        this.results = List.copyOf(results);
        this.when = when;
    }

    /** A cell: the tutorial's claim, then what was measured. */
    public record Cell(String claim, String measured) {
    }

    public Cell cell(Claim row, ColumnResult r) {
        return new Cell(r.column().claims().get(row), r.stopped() == null ? measured(row, r) : stopped(row, r));
    }

    /**
     * The cell of a column the comparison stopped in or before: what its runs measured, said to be incomplete, or
     * "not measured" and why. Complexity and lock types come from the code, not from runs, and stand.
     */
    private String stopped(Claim row, ColumnResult r) {
        int loadRuns = plan.keyCounts().size() + r.column().herdRecipes().size();
        boolean none;
        boolean complete;
        switch (row) {
            case RELIABILITY -> {
                none = r.reliability().isEmpty();
                complete = r.reliability().size() == plan.faults().size() && r.load().runs() == loadRuns;
            }
            case PERFORMANCE -> {
                none = r.acquiresPerSecond().isEmpty();
                complete = r.load().runs() >= plan.keyCounts().size();
            }
            case HERD -> {
                none = r.herd().isEmpty();
                complete = r.load().runs() == loadRuns;
            }
            case RECOVERY -> {
                none = r.recoveries().isEmpty();
                complete = r.reliability().containsKey(FaultClass.HOLDER_CUT_OFF)
                        || !plan.faults().contains(FaultClass.HOLDER_CUT_OFF);
            }
            default -> {
                return measured(row, r);
            }
        }
        if (complete) {
            return measured(row, r);
        }
        return none ? "not measured (" + r.stopped() + ")" : measured(row, r) + " (incomplete: " + r.stopped() + ")";
    }

    static String measured(Claim row, ColumnResult r) {
        return switch (row) {
            case RELIABILITY -> reliability(r);
            case PERFORMANCE -> r.acquiresPerSecond().isEmpty() ? "not measured (the runs failed)"
                    : r.acquiresPerSecond().entrySet().stream().map(e -> String.format(Locale.ROOT,
                            "%.0f acquires/s on %d key%s", e.getValue(), e.getKey(), e.getKey() == 1 ? "" : "s"))
                            .collect(Collectors.joining(", "));
            case COMPLEXITY -> r.column().sources().isEmpty() ? "not counted (not one of the tutorial's"
                    + " hand-written recipes)" : r.codeLines() < 0 ? "not measured (the jar lacks the sources)"
                    : r.codeLines()
                    + " code lines (" + r.column().sources().stream().map(s -> s.substring(s.lastIndexOf('/') + 1))
                    .collect(Collectors.joining(", ")) + ")";
            case HERD -> herd(r);
            case LOCK_TYPES -> String.join(", ", r.lockTypes());
            case RECOVERY -> recovery(r);
        };
    }

    private static String reliability(ColumnResult r) {
        int runs = 0;
        int doubles = 0;
        int unknown = 0;
        List<String> parts = new ArrayList<>();
        for (Map.Entry<FaultClass, Tally> e : r.reliability().entrySet()) {
            Tally t = e.getValue();
            runs += t.runs();
            doubles += t.doubleHolders();
            unknown += t.unknown();
            parts.add(e.getKey().wireName() + " " + t.doubleHolders() + "/" + t.runs());
        }
        Tally load = r.load();
        return "double holders in " + doubles + " of " + runs + " runs (" + String.join(", ", parts) + ")"
                + (unknown > 0 ? "; " + unknown + " run(s) unknown" : "") + (load.invalid() == 0 ? ""
                : "; without faults, under load: invalid in " + load.invalid() + " of " + load.runs() + " runs ("
                + String.join(", ", load.kinds()) + ")");
    }

    private static String herd(ColumnResult r) {
        if (r.herd().isEmpty()) {
            return "not measured (the grants do not count their wake-ups)";
        }
        return r.herd().entrySet().stream().map(e -> String.format(Locale.ROOT, "%s: %.2f %s per grant", e.getKey(),
                e.getValue(), r.herdUnit())).collect(Collectors.joining("; "));
    }

    private static String recovery(ColumnResult r) {
        List<Recovery> all = r.recoveries();
        if (all.isEmpty()) {
            return "not measured (no holder was cut off)";
        }
        List<Double> during = all.stream().filter(x -> !x.afterHeal() && !Double.isNaN(x.seconds()))
                .map(Recovery::seconds).sorted().toList();
        long after = all.stream().filter(Recovery::afterHeal).count();
        long never = all.stream().filter(x -> Double.isNaN(x.seconds())).count();
        List<String> parts = new ArrayList<>();
        if (!during.isEmpty()) {
            parts.add(String.format(Locale.ROOT, "next grant %.1f s after the holder went silent (median of %d)",
                    during.get(during.size() / 2), during.size()));
        }
        if (after > 0) {
            parts.add("no grant while the holder was silent in " + after + " of " + all.size() + " runs (only after"
                    + " its connections came back)");
        }
        if (never > 0) {
            parts.add("no grant at all in " + never + " of " + all.size() + " runs");
        }
        return String.join("; ", parts);
    }

    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("| | ");
        b.append(results.stream().map(r -> r.column().title() + " (`" + r.column().recipe() + "`)")
                .collect(Collectors.joining(" | "))).append(" |\n|---|");
        b.append("---|".repeat(results.size())).append('\n');
        for (Claim row : Claim.values()) {
            b.append("| ").append(row.title()).append(" (").append(row.original()).append(") |");
            for (ColumnResult r : results) {
                Cell c = cell(row, r);
                b.append(" tutorial: ").append(c.claim()).append("<br>measured: ").append(c.measured()
                        .replace("|", "\\|")).append(" |");
            }
            b.append('\n');
        }
        b.append('\n').append(planText()).append('\n');
        return b.toString();
    }

    public String html() {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>lockchaos"
                + " compare</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
                + "td,th{border:1px solid #999;padding:.4em;vertical-align:top}.claim{color:#666}</style></head>"
                + "<body>\n<h1>The tutorial's table, measured</h1>\n<table>\n<tr><th></th>");
        for (ColumnResult r : results) {
            b.append("<th>").append(esc(r.column().title())).append("<br><code>").append(esc(r.column().recipe()))
                    .append("</code></th>");
        }
        b.append("</tr>\n");
        for (Claim row : Claim.values()) {
            b.append("<tr><th>").append(esc(row.title())).append("<br>").append(esc(row.original())).append("</th>");
            for (ColumnResult r : results) {
                Cell c = cell(row, r);
                b.append("<td><div class=\"claim\">tutorial: ").append(esc(c.claim())).append("</div>")
                        .append(esc(c.measured())).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n<p>").append(esc(planText())).append("</p>\n</body></html>\n");
        return b.toString();
    }

    /** How the figures were made, under the table. */
    private String planText() {
        return String.format(Locale.ROOT, "Measured %s. Reliability: %d run(s) per fault class (%s), 3 clients, %d s"
                + " each; recovery from the holder-cut-off runs. Performance: %d clients holding 1 ms, %d s"
                + " without faults. Herd: wake-ups per grant at %d clients on 1 key.", when, plan.runs(),
                plan.faults().stream().map(f -> f.wireName() + ": " + f.description() + ", holds of "
                        + f.holdMillis() + " ms").collect(Collectors.joining("; ")), plan.faultSeconds(),
                plan.clients(),
                plan.loadSeconds(), plan.clients()) + " Deployments: " + results.stream().map(r -> r.column().title()
                + ": " + r.column().deployment()).collect(Collectors.joining("; ")) + "."
                + results.stream().filter(r -> r.stopped() != null).findFirst().map(r -> " Not the whole plan: "
                + r.stopped() + ".").orElse("");
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
