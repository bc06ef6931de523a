package io.lockchaos.serve;

import io.lockchaos.store.RunDir;
import com.fasterxml.jackson.databind.JsonNode;
import io.lockchaos.store.StoreIndex.StoredRun;
import io.lockchaos.suite.SuiteEntry;
import io.lockchaos.suite.Trends;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The store browser's pages, rendered on the server as plain HTML with one short inline script (the filters submit
 * when changed, allowed by its hash); no build step, nothing fetched from elsewhere. Printing only: verdicts come from the runs' files.
 */
final class Pages {
    private static final String STYLE = "<style>body{font:14px sans-serif;margin:1.2em;color:#222}"
            + "table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;border-bottom:1px solid #ddd;"
            + "text-align:left;vertical-align:top}th{background:#f3f4f6}.valid{color:#1e7d3b}.invalid{color:#c0392b;"
            + "font-weight:bold}.unknown,.unchecked{color:#b35900}.crashed{color:#8b0000}td.faults,td.kinds{font-size:12px}"
            + "pre{background:#f7f7f7;padding:8px;overflow:auto}img{max-width:48%;margin:4px;border:1px solid #ddd}"
            + "form{margin:0 0 1em}</style>";
    /** The index page's one script: the filters submit when changed. Its hash is in every page's policy. */
    static final String INDEX_SCRIPT = "\n"
            + "document.querySelector('#filters select').addEventListener('change', function () {\n"
            + "  document.getElementById('filters').submit();\n});\n"
            + "document.body.setAttribute('data-runs', String(document.querySelectorAll('tr.run').length));\n";
    private static final List<String> PLOTS = RunDir.PLOTS;
    private static final List<String> FILES = RunDir.SHOWN;

    private Pages() {
    }

    /**
     * Every run that passes the filters {@code verdict} (or all) and {@code test} (a substring of its name), and the
     * store's last corpus check when it has one ({@code corpus}, or null).
     */
    static String index(List<StoredRun> runs, Map<String, String> query, JsonNode corpus) {
        String verdict = query.getOrDefault("verdict", "all");
        String test = query.getOrDefault("test", "").trim();
        List<StoredRun> shown = runs.stream()
                .filter(r -> verdict.equals("all") || r.verdict().equals(verdict))
                .filter(r -> test.isEmpty() || r.test().toLowerCase(Locale.ROOT)
                        .contains(test.toLowerCase(Locale.ROOT)))
                .toList();
        StringBuilder s = new StringBuilder(head("lockchaos store"));
        s.append("<h1>lockchaos store</h1>\n<form id=\"filters\" method=\"get\" action=\"/\">verdict <select"
                + " name=\"verdict\">");
        for (String v : List.of("all", "valid", "invalid", "unknown", "crashed", "unchecked")) {
            s.append("<option").append(v.equals(verdict) ? " selected" : "").append('>').append(v)
                    .append("</option>");
        }
        s.append("</select> test <input name=\"test\" value=\"").append(esc(test)).append("\" size=\"24\">"
                + " <button>filter</button></form>\n");
        if (corpus != null) {
            s.append("<p id=\"corpus\">last corpus check of the store: <span class=\"")
                    .append(esc(corpus.path("verdict").asText())).append("\">").append(esc(corpus.path("verdict")
                    .asText())).append("</span>, ").append(corpus.path("files").asLong()).append(" files, ")
                    .append(corpus.path("ops").asLong()).append(" ops (<a href=\"/files/check-index.json\">"
                    + "check-index.json</a>)</p>\n");
        }
        s.append("<p id=\"count\">").append(shown.size()).append(" of ").append(runs.size())
                .append(" runs, newest first</p>\n<p id=\"suites\"><a href=\"/suites\">suite runs</a>: each workload's"
                + " outcomes over the stored suite runs; <a href=\"/hunts\">hunts</a>: their findings</p>\n");
        s.append("<table id=\"runs\"><tr><th>run</th><th>test</th><th>verdict</th><th>recipe</th><th>faults</th>"
                + "<th>duration</th><th>anomalies</th><th>seed</th><th>open</th></tr>\n");
        for (StoredRun r : shown) {
            String files = "/files/" + href(r.dir()) + "/";
            s.append("<tr class=\"run\" data-verdict=\"").append(esc(r.verdict())).append("\"><td><a href=\"/run/")
                    .append(href(r.dir())).append("/\">").append(esc(r.dir())).append("</a></td><td>")
                    .append(esc(r.test())).append("</td><td class=\"").append(esc(r.verdict())).append("\">")
                    .append(esc(r.verdict())).append(r.crash().isEmpty() ? "" : ": " + esc(r.crash()))
                    .append("</td><td>").append(esc(r.recipe()))
                    .append("</td><td class=\"faults\">").append(r.faults().isEmpty() ? "none"
                            : esc(String.join("; ", r.faults()))).append("</td><td>")
                    .append(r.durationSeconds() < 0 ? "" : String.format(Locale.ROOT, "%.1f s", r.durationSeconds()))
                    .append("</td><td class=\"kinds\">").append(esc(String.join(", ", r.anomalyKinds())))
                    .append("</td><td>").append(esc(r.seed())).append("</td><td><a class=\"timeline\" href=\"")
                    .append(files).append("timeline.html\">timeline</a> · <a href=\"").append(files)
                    .append("summary.txt\">summary</a> · <a href=\"").append(files)
                    .append("results.json\">results</a></td></tr>\n");
        }
        s.append("</table>\n<script>").append(INDEX_SCRIPT).append("</script>\n</body></html>\n");
        return s.toString();
    }

    /**
     * A run's page: its summary (the verdict and the first story as printed), every story, its plots and files; only
     * files {@code inStore} accepts (regular files really inside the store) are read or linked.
     */
    static String run(StoredRun r, Path dir, java.util.function.Predicate<Path> inStore,
                      java.util.function.Function<Path, byte[]> read, List<JsonNode> stories) {
        String files = "/files/" + href(r.dir()) + "/";
        StringBuilder s = new StringBuilder(head(r.test() + " " + r.dir()));
        s.append("<p><a href=\"/\">all runs</a></p><h1>").append(esc(r.test())).append(" <span class=\"")
                .append(esc(r.verdict())).append("\">").append(esc(r.verdict())).append("</span></h1>\n")
                .append(r.crash().isEmpty() ? "" : "<p class=\"crashed\">crashed: " + esc(r.crash()) + "</p>\n")
                .append("<p>")
                .append(esc(r.dir())).append(" · recipe ").append(esc(r.recipe())).append(" · seed ")
                .append(esc(r.seed())).append(" · faults: ").append(r.faults().isEmpty() ? "none"
                        : esc(String.join("; ", r.faults()))).append("</p>\n<p>");
        for (String f : FILES) {
            if (inStore.test(dir.resolve(f))) {
                s.append("<a href=\"").append(files).append(f).append("\">").append(f).append("</a> ");
            }
        }
        s.append("</p>\n");
        Path summary = RunDir.of(dir).summary();
        if (inStore.test(summary)) {
            byte[] text = read.apply(summary);
            s.append(text == null ? "<p>summary.txt cannot be read</p>\n" : "<h2>summary</h2><pre id=\"summary\">"
                    + esc(new String(text, java.nio.charset.StandardCharsets.UTF_8)) + "</pre>\n");
        }
        s.append("<h2>stories (").append(stories.size()).append(")</h2>\n");
        for (JsonNode story : stories) {
            s.append("<pre class=\"story\">how the double holder of ").append(esc(story.path("key").asText()))
                    .append(" happened:\n");
            story.path("events").forEach(e -> s.append(String.format(Locale.ROOT, "%10.3f s  ",
                    e.path("time_ns").asLong() / 1e9)).append(esc(e.path("what").asText())).append('\n'));
            s.append("</pre>\n");
        }
        s.append("<h2>plots</h2>\n");
        for (String p : PLOTS) {
            if (inStore.test(dir.resolve(p))) {
                s.append("<img alt=\"").append(p).append("\" src=\"").append(files).append(p).append("\">");
            }
        }
        s.append("\n</body></html>\n");
        return s.toString();
    }

    /**
     * The stored suite runs: one row per workload, one coloured cell per suite run (oldest first, newest last), its
     * change since the previous suite run and a flaky mark; then the changes as {@code suite} printed them.
     */
    static String suites(Trends t) {
        StringBuilder s = new StringBuilder(head("lockchaos suite runs"));
        s.append("<h1>suite runs</h1>\n<p><a href=\"/\">all runs</a></p>\n");
        if (t.runs().isEmpty()) {
            s.append("<p id=\"none\">no suite runs in this store (<code>bin/lockchaos suite</code> makes them)</p>\n"
                    + "</body></html>\n");
            return s.toString();
        }
        s.append("<p id=\"count\">").append(t.runs().size()).append(" suite run(s), oldest first; newest: <a href=\"/files/"
                + "suite/").append(href(t.runs().get(t.runs().size() - 1).getFileName().toString()))
                .append("/junit.xml\">junit.xml</a></p>\n<table id=\"trends\"><tr><th>workload</th>");
        for (Path r : t.runs()) {
            s.append("<th title=\"").append(esc(r.getFileName().toString())).append("\">")
                    .append(esc(r.getFileName().toString().replaceFirst("^\\d{4}(\\d{4})T(\\d{4}).*", "$1 $2")))
                    .append("</th>");
        }
        s.append("<th>since the previous</th></tr>\n");
        for (Trends.Row row : t.rows()) {
            s.append("<tr><td>").append(esc(row.name())).append("</td>");
            for (SuiteEntry.Outcome o : row.outcomes()) {
                String name = o == null ? "" : o.wireName();
                String color = o == null ? "#fff" : switch (o) {
                    case MET -> "#2e9d4f";
                    case NOT_MET -> "#c0392b";
                    case CRASHED, CUT -> "#e67e22";
                    case SKIPPED -> "#bbb";
                };
                s.append("<td class=\"cell ").append(name).append("\" title=\"").append(name.isEmpty() ? "not run"
                        : name).append("\" style=\"background:").append(color).append("\"></td>");
            }
            String change = row.change().words() + (row.flaky() ? (row.change().words().isEmpty() ? "" : ", ")
                    + "flaky" : "");
            s.append("<td class=\"change\">").append(esc(change)).append("</td></tr>\n");
        }
        s.append("</table>\n<h2>since the previous suite run</h2>\n<ul id=\"changes\">");
        List<String> changes = t.changes();
        if (changes.isEmpty()) {
            s.append("<li>no change</li>");
        }
        for (String c : changes) {
            s.append("<li>").append(esc(c)).append("</li>");
        }
        s.append("</ul>\n</body></html>\n");
        return s.toString();
    }

    /** The hunts ({@code bin/lockchaos hunt}), newest first: what each covered and each finding, linked. */
    static String hunts(Map<String, JsonNode> hunts) {
        StringBuilder s = new StringBuilder(head("lockchaos hunts"));
        s.append("<h1>hunts</h1>\n<p><a href=\"/\">all runs</a></p>\n");
        if (hunts.isEmpty()) {
            return s.append("<p id=\"none\">no hunts in this store (<code>bin/lockchaos hunt --budget 10m</code>"
                    + " makes them)</p>\n</body></html>\n").toString();
        }
        s.append("<table id=\"hunts\"><tr><th>hunt</th><th>runs</th><th>findings</th></tr>\n");
        for (Map.Entry<String, JsonNode> h : hunts.entrySet()) {
            String folder = "hunts/" + h.getKey();
            JsonNode f = h.getValue();
            s.append("<tr><td><a href=\"/files/").append(href(folder)).append("/findings.json\">")
                    .append(esc(h.getKey())).append("</a></td><td>").append(f.path("runs").asLong()).append("</td><td>");
            int shown = 0;
            for (JsonNode x : f.path("findings")) {
                if (shown++ == 100) {
                    break;
                }
                String known = x.path("known_bug").isTextual() ? x.path("known_bug").asText()
                        : x.path("by_design").isTextual() ? "by design: " + x.path("by_design").asText() : "new";
                s.append("<div class=\"finding\"><a href=\"/files/").append(href(folder + "/finding-"
                        + x.path("number").asLong() + ".md")).append("\">finding ").append(x.path("number").asLong())
                        .append("</a>: <b>").append(esc(known)).append("</b> ").append(esc(x.path("recipe").asText()))
                        .append(", ").append(esc(String.join(" ", texts(x.path("anomalies"))))).append(" under ")
                        .append(esc(String.join(" ", texts(x.path("faults"))))).append("</div>");
            }
            s.append(shown == 0 ? "none" : "").append("</td></tr>\n");
        }
        return s.append("</table>\n</body></html>\n").toString();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(x -> out.add(x.asText()));
        return out;
    }

    private static String head(String title) {
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>" + STYLE
                + "</head><body>\n";
    }

    /** A relative folder as a URL path: each segment percent-encoded, the separators kept. */
    private static String href(String dir) {
        StringBuilder s = new StringBuilder();
        for (String segment : dir.split("/")) {
            s.append(s.length() == 0 ? "" : "/").append(URLEncoder.encode(segment, StandardCharsets.UTF_8)
                    .replace("+", "%20"));
        }
        return s.toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
