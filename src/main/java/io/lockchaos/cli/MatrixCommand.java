package io.lockchaos.cli;

import io.lockchaos.agent.CuratorResolver;
import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.Verdict;
import io.lockchaos.core.ClientSpec;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.scenario.Scenario;
import io.lockchaos.scenario.ScenarioResult;
import io.lockchaos.store.RunDir;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code matrix}: one workload on several Curator versions, {@code --runs} times each, against the verdicts the
 * workload expects per version ({@code expect_by_curator}); or {@code --bisect A..B}: the first version in a range
 * whose outcome differs from A's.
 */
@Command(name = "matrix", mixinStandardHelpOptions = true,
        header = "Run a workload on several Curator versions and compare with its expected verdicts.",
        description = {"Runs the workload --runs times on each Curator version (in client agents; 'linked' is the"
            + " in-process 5.9.0), prints version x (runs, invalid, violation kinds, median time of the first"
            + " violation), and writes matrix.json and matrix.html. With --bisect A..B it finds the first version of the"
            + " range whose outcome differs from A's (assuming one change in the range).",
            "A version's outcome is invalid when any run was invalid, valid when every run was valid, else unknown.",
            "Exit code: 0 every version as expected, 1 a version not as expected, 2 error."})
final class MatrixCommand implements Callable<Integer> {
    @Option(names = "--workload", required = true, description = "workload file (JSON); its expect_by_curator (or"
            + " expect) states the verdict per version")
    Path workload;

    @Option(names = "--curator", split = ",", description = "versions to run, comma-separated (e.g."
            + " 5.2.0,5.4.0,5.5.0,5.9.0)")
    List<String> versions;

    @Option(names = "--bisect", description = "A..B: find the first version from A to B whose outcome differs from"
            + " A's")
    String bisect;

    @Option(names = "--runs", defaultValue = "1", description = "runs per version (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--seed", description = "seed of the first run; run i uses seed + i (default: the workload's,"
            + " else 1)")
    Long seed;

    @Option(names = "--store", defaultValue = "histories", description = "where the runs are stored (default:"
            + " ${DEFAULT-VALUE})")
    Path store;

    @Option(names = "--out", description = "folder for matrix.json and matrix.html (default: <store>/<test>/matrix-"
            + "<time>)")
    Path out;

    /** What the runs on one version found. */
    record Row(String version, String resolved, List<Verdict> verdicts, TreeSet<String> kinds,
               List<Double> firstViolationSeconds, List<Path> dirs, Optional<Verdict> expected) {
        long count(Verdict v) {
            return verdicts.stream().filter(x -> x == v).count();
        }

        Verdict outcome() {
            return count(Verdict.INVALID) > 0 ? Verdict.INVALID : count(Verdict.VALID) == verdicts.size()
                    ? Verdict.VALID : Verdict.UNKNOWN;
        }

        /** Whether every run reached the expected verdict (true when none is expected). */
        boolean asExpected() {
            return expected.isEmpty() || verdicts.stream().allMatch(v -> v == expected.get());
        }

        Double medianFirstViolation() {
            if (firstViolationSeconds.isEmpty()) {
                return null;
            }
            List<Double> s = new ArrayList<>(firstViolationSeconds);
            java.util.Collections.sort(s);
            int n = s.size();
            return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("version", version);
            m.put("resolved", resolved);
            m.put("runs", verdicts.size());
            m.put("invalid", count(Verdict.INVALID));
            m.put("valid", count(Verdict.VALID));
            m.put("unknown", count(Verdict.UNKNOWN));
            m.put("outcome", outcome().wireName());
            m.put("violation_kinds", List.copyOf(kinds));
            m.put("median_first_violation_s", medianFirstViolation());
            m.put("expected", expected.map(Verdict::wireName).orElse(null));
            m.put("as_expected", asExpected());
            m.put("runs_stored", dirs.stream().map(Path::toString).toList());
            return m;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || runs > 1000) {
            throw new UserError("--runs: expected 1 to 1000, got " + runs);
        }
        if ((versions == null) == (bisect == null)) {
            throw new UserError("matrix: give either --curator V1,V2,... or --bisect A..B");
        }
        TestSpec spec;
        try {
            spec = TestSpecs.load(workload);
        } catch (SpecException e) {
            throw new UserError(e.getMessage());
        }
        CuratorResolver resolver = CuratorResolver.defaults();
        List<String> list;
        if (bisect != null) {
            int dots = bisect.indexOf("..");
            if (dots < 0) {
                throw new UserError("--bisect: expected A..B, got '" + bisect + "'");
            }
            try {
                list = resolver.versions(bisect.substring(0, dots), bisect.substring(dots + 2));
            } catch (CuratorResolver.UnresolvableVersion e) {
                throw new UserError("--bisect: " + e.getMessage());
            }
            System.out.println("bisect: " + list.size() + " released versions from " + list.get(0) + " to "
                    + list.get(list.size() - 1) + ": " + String.join(", ", list));
        } else {
            list = versions;
            // every version resolved before the first run: a typo found after an hour of runs would waste them
            for (String v : list) {
                if (!v.equals(ClientSpec.LINKED)) {
                    try {
                        resolver.classpath(v);
                    } catch (CuratorResolver.UnresolvableVersion e) {
                        throw new UserError(e.getMessage());
                    }
                }
            }
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        Map<String, Object> bisection = null;
        long base = seed != null ? seed : spec.seed() != 0 ? spec.seed() : 1;
        if (bisect == null) {
            for (String v : list) {
                rows.put(v, runVersion(spec, v, base, resolver));
            }
        } else {
            bisection = bisect(spec, list, base, resolver, rows);
        }
        Path dir = out != null ? out : store.resolve(spec.name()).resolve("matrix-"
                + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(java.time.ZoneOffset.UTC)
                .format(java.time.Instant.now()));
        Files.createDirectories(dir);
        List<Row> all = new ArrayList<>(rows.values());
        // a bisection runs versions out of order; the table reads in version order, the linked one last
        all.sort((a, b) -> a.version().equals(b.version()) ? 0 : a.version().equals(ClientSpec.LINKED) ? 1
                : b.version().equals(ClientSpec.LINKED) ? -1 : io.lockchaos.core.CheckSpec.compareVersions(a.version(),
                b.version()));
        print(spec, all);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("workload", workload.toString());
        json.put("test", spec.name());
        json.put("runs_per_version", runs);
        json.put("first_seed", base);
        json.put("versions", all.stream().map(Row::toMap).toList());
        if (bisection != null) {
            json.put("bisect", bisection);
        }
        ResultsJson.writeMap(dir.resolve("matrix.json"), json);
        Files.writeString(dir.resolve("matrix.html"), html(spec, all, bisection), StandardCharsets.UTF_8);
        System.out.println("  matrix: " + dir.resolve("matrix.json"));
        System.out.println("  table: " + dir.resolve("matrix.html"));
        boolean met = all.stream().allMatch(Row::asExpected);
        return met ? 0 : 1;
    }

    private Row runVersion(TestSpec spec, String version, long base, CuratorResolver resolver) throws Exception {
        if (!version.equals(ClientSpec.LINKED)) {
            try {
                resolver.classpath(version);
            } catch (CuratorResolver.UnresolvableVersion e) {
                throw new UserError(e.getMessage());
            }
        }
        List<Verdict> verdicts = new ArrayList<>();
        TreeSet<String> kinds = new TreeSet<>();
        List<Double> first = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        String resolved = null;
        TestSpec onVersion = null;
        for (int i = 0; i < runs; i++) {
            Scenario s = Scenario.of(spec).set("curator", version).seed(base + i).store(store);
            ScenarioResult r;
            try {
                onVersion = s.spec();
            } catch (SpecException e) {
                throw new UserError(e.getMessage());
            }
            try {
                r = s.run();
            } catch (Exception e) {
                // one run that could not be carried out is an unknown, not the end of the rows already run
                verdicts.add(Verdict.UNKNOWN);
                System.out.printf(Locale.ROOT, "  curator %-8s run %d/%d (seed %d): unknown: the run failed: %s%n",
                        version, i + 1, runs, base + i, e);
                continue;
            }
            verdicts.add(r.verdict());
            r.violations().forEach(k -> kinds.add(k.wireName()));
            r.anomalies().stream().filter(a -> a.severity() == io.lockchaos.checker.Severity.VIOLATION).mapToLong(Anomaly::start).min()
                    .ifPresent(t -> first.add(t / 1e9));
            dirs.add(r.dir());
            resolved = curatorOf(r.dir());
            System.out.printf(Locale.ROOT, "  curator %-8s run %d/%d (seed %d): %s%s%n", version, i + 1, runs, base + i,
                    r.verdict().wireName(), r.violations().isEmpty() ? "" : " " + r.violations().stream()
                            .map(k -> k.wireName()).sorted().toList());
        }
        return new Row(version, resolved, verdicts, kinds, first, dirs, onVersion.expectedVerdict());
    }

    /** The Curator version a stored run's clients reported (results.json), or null. */
    private static String curatorOf(Path runDir) {
        try {
            com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(RunDir.of(runDir).results().toFile());
            com.fasterxml.jackson.databind.JsonNode c = r.path("curator");
            return c.isTextual() ? c.asText() : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * Binary search for the first version whose outcome differs from the first version's, assuming the outcome
     * changes once in the range (a fix, or a regression).
     */
    private Map<String, Object> bisect(TestSpec spec, List<String> list, long base, CuratorResolver resolver,
                                       Map<String, Row> rows) throws Exception {
        Row first = runVersion(spec, list.get(0), base, resolver);
        rows.put(list.get(0), first);
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("from", list.get(0));
        b.put("to", list.get(list.size() - 1));
        b.put("from_outcome", first.outcome().wireName());
        if (list.size() == 1) {
            b.put("first_different", null);
            return b;
        }
        Row last = runVersion(spec, list.get(list.size() - 1), base, resolver);
        rows.put(list.get(list.size() - 1), last);
        if (first.outcome() == Verdict.UNKNOWN || last.outcome() == Verdict.UNKNOWN) {
            System.out.println("bisect: an end of the range gave no verdict (see its runs): nothing to bisect");
            b.put("first_different", null);
            return b;
        }
        if (last.outcome() == first.outcome()) {
            System.out.println("bisect: " + list.get(list.size() - 1) + " has the same outcome as " + list.get(0)
                    + " (" + first.outcome().wireName() + "): no change found in the range");
            b.put("first_different", null);
            return b;
        }
        int lo = 0;
        int hi = list.size() - 1; // lo has first's outcome, hi differs
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            Row r = runVersion(spec, list.get(mid), base, resolver);
            rows.put(list.get(mid), r);
            if (r.outcome() == Verdict.UNKNOWN) {
                System.out.println("bisect: " + list.get(mid) + " gave no verdict (see its runs): stopping here");
                b.put("first_different", null);
                b.put("stopped_at", list.get(mid));
                return b;
            }
            if (r.outcome() == first.outcome()) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        System.out.println("bisect: first version whose outcome differs from " + list.get(0) + " ("
                + first.outcome().wireName() + "): " + list.get(hi) + " (" + rows.get(list.get(hi)).outcome()
                .wireName() + "); last with it: " + list.get(lo));
        b.put("first_different", list.get(hi));
        b.put("first_different_outcome", rows.get(list.get(hi)).outcome().wireName());
        b.put("last_same", list.get(lo));
        b.put("versions_run", rows.size());
        return b;
    }

    private void print(TestSpec spec, List<Row> rows) {
        System.out.println("matrix " + spec.name() + ": " + runs + " run(s) per version");
        System.out.printf(Locale.ROOT, "  %-10s %-10s %5s %8s  %-10s %-9s %-14s %s%n", "curator", "resolved", "runs",
                "invalid", "expected", "as exp.", "first viol. s", "violation kinds");
        for (Row r : rows) {
            Double med = r.medianFirstViolation();
            System.out.printf(Locale.ROOT, "  %-10s %-10s %5d %8d  %-10s %-9s %-14s %s%n", r.version(),
                    r.resolved() == null ? "?" : r.resolved(), r.verdicts().size(), r.count(Verdict.INVALID),
                    r.expected().map(Verdict::wireName).orElse("-"), r.asExpected() ? "yes" : "NO",
                    med == null ? "-" : String.format(Locale.ROOT, "%.3f", med), String.join(", ", r.kinds()));
        }
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    private String html(TestSpec spec, List<Row> rows, Map<String, Object> bisection) {
        StringBuilder b = new StringBuilder();
        b.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>matrix ").append(esc(spec.name()))
                .append("</title><style>body{font-family:sans-serif}td,th{padding:4px 10px;border-bottom:1px solid"
                        + " #ccc;text-align:left}.no{color:#b00;font-weight:bold}.invalid{color:#b00}.valid{color:#070}"
                        + "</style></head><body>");
        b.append("<h1>").append(esc(spec.name())).append(" across Curator versions</h1>");
        b.append("<p>").append(esc(workload.toString())).append(", ").append(runs).append(" run(s) per version</p>");
        b.append("<table><tr><th>curator</th><th>resolved</th><th>runs</th><th>invalid</th><th>outcome</th>"
                + "<th>expected</th><th>as expected</th><th>median first violation (s)</th><th>violation kinds</th>"
                + "</tr>");
        for (Row r : rows) {
            Double med = r.medianFirstViolation();
            b.append("<tr><td>").append(esc(r.version())).append("</td><td>").append(esc(r.resolved()))
                    .append("</td><td>").append(r.verdicts().size()).append("</td><td>")
                    .append(r.count(Verdict.INVALID)).append("</td><td class=\"").append(r.outcome().wireName())
                    .append("\">").append(r.outcome().wireName()).append("</td><td>")
                    .append(esc(r.expected().map(Verdict::wireName).orElse("-"))).append("</td><td")
                    .append(r.asExpected() ? ">yes" : " class=\"no\">NO").append("</td><td>")
                    .append(med == null ? "-" : String.format(Locale.ROOT, "%.3f", med)).append("</td><td>")
                    .append(esc(String.join(", ", r.kinds()))).append("</td></tr>");
        }
        b.append("</table>");
        if (bisection != null) {
            b.append("<p>bisect: first version whose outcome differs from ").append(esc(String.valueOf(
                    bisection.get("from")))).append(": <b>").append(esc(String.valueOf(bisection.get(
                    "first_different")))).append("</b></p>");
        }
        b.append("</body></html>\n");
        return b.toString();
    }
}
