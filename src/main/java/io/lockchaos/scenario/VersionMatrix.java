package io.lockchaos.scenario;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.Severity;
import io.lockchaos.checker.Verdict;
import io.lockchaos.client.Library;
import io.lockchaos.core.CheckSpec;
import io.lockchaos.core.ClientSpec;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.store.RunDir;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One workload on several Curator versions (or ZooKeeper server releases), {@code runs} times each, against the
 * verdicts it expects per version ({@code expect_by_curator}, {@code expect_by_zookeeper}); or a bisection: the first
 * version of a range whose outcome differs from the first's.
 * What {@code matrix} runs; the command only parses and prints.
 */
public final class VersionMatrix {
    private final TestSpec spec;
    private final int runs;
    private final Path store;
    private final long base;
    private final VersionResolver resolver;
    private final Axis axis;
    private final PrintStream out;

    /**
     * What a matrix varies: the workload key each row sets, how the page names the versions, and how the version that
     * actually ran is read back from a stored run.
     */
    public record Axis(String key, String title, java.util.function.Function<Path, String> resolvedOf) {
        /** Curator versions or ZooKeeper releases. */
        public static Axis of(VersionResolver.Module module) {
            return module == VersionResolver.Module.CURATOR
                    ? new Axis(module.key(), "Curator versions", VersionMatrix::curatorOf)
                    : new Axis(module.key(), "ZooKeeper releases", VersionMatrix::zooKeeperOf);
        }

        /** Releases of the library a recipe wraps ({@code library_version}). */
        public static Axis library(Library library) {
            return new Axis("library_version", library.name() + " releases", dir -> versionIn(dir, library.name()));
        }
    }

    /** Runs are stored under {@code store}; progress lines go to {@code out}. */
    public VersionMatrix(TestSpec spec, int runs, Path store, long baseSeed, VersionResolver resolver,
                         PrintStream out) {
        this(spec, runs, store, baseSeed, resolver, Axis.of(VersionResolver.Module.CURATOR), out);
    }

    /** As the other constructor, over the versions of {@code axis} (the resolver resolves its artifact). */
    public VersionMatrix(TestSpec spec, int runs, Path store, long baseSeed, VersionResolver resolver,
                         Axis axis, PrintStream out) {
        if (runs < 1 || runs > 1000) {
            throw new IllegalArgumentException("--runs: expected 1 to 1000, got " + runs);
        }
        this.spec = spec;
        this.runs = runs;
        this.store = store;
        this.base = baseSeed;
        this.resolver = resolver;
        this.axis = axis;
        this.out = out;
    }

    /** What the runs on one version found. */
    public record Row(String version, String resolved, List<Verdict> verdicts, TreeSet<String> kinds,
               List<Double> firstViolationSeconds, List<Path> dirs, Optional<Verdict> expected) {
        public long count(Verdict v) {
            return verdicts.stream().filter(x -> x == v).count();
        }

        public Verdict outcome() {
            return count(Verdict.INVALID) > 0 ? Verdict.INVALID : count(Verdict.VALID) == verdicts.size()
                    ? Verdict.VALID : Verdict.UNKNOWN;
        }

        /** Whether every run reached the expected verdict (true when none is expected). */
        public boolean asExpected() {
            return expected.isEmpty() || verdicts.stream().allMatch(v -> v == expected.get());
        }

        public Double medianFirstViolation() {
            if (firstViolationSeconds.isEmpty()) {
                return null;
            }
            List<Double> s = new ArrayList<>(firstViolationSeconds);
            java.util.Collections.sort(s);
            int n = s.size();
            return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        }

        public Map<String, Object> toMap() {
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

    /**
     * Runs the workload {@code runs} times on {@code version}, seeds base, base + 1...; a run that could not be carried
     * out counts as unknown.
     *
     * @throws IllegalArgumentException when the version does not resolve or the workload cannot run on it
     */
    public Row run(String version) throws Exception {
        if (!version.equals(ClientSpec.LINKED)) {
            try {
                resolver.classpath(version);
            } catch (VersionResolver.UnresolvableVersion e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }
        List<Verdict> verdicts = new ArrayList<>();
        TreeSet<String> kinds = new TreeSet<>();
        List<Double> first = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        String resolved = null;
        TestSpec onVersion = null;
        for (int i = 0; i < runs; i++) {
            Scenario s = Scenario.of(spec).set(axis.key(), version).seed(base + i).store(store);
            ScenarioResult r;
            try {
                onVersion = s.spec();
            } catch (SpecException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
            try {
                r = s.run();
            } catch (Exception e) {
                // one run that could not be carried out is an unknown, not the end of the rows already run
                verdicts.add(Verdict.UNKNOWN);
                out.printf(Locale.ROOT, "  %s %-8s run %d/%d (seed %d): unknown: the run failed: %s%n",
                        axis.key(), version, i + 1, runs, base + i, e);
                continue;
            }
            verdicts.add(r.verdict());
            r.violations().forEach(k -> kinds.add(k.wireName()));
            r.anomalies().stream().filter(a -> a.severity() == Severity.VIOLATION).mapToLong(Anomaly::start).min()
                    .ifPresent(t -> first.add(t / 1e9));
            dirs.add(r.dir());
            resolved = axis.resolvedOf().apply(r.dir());
            out.printf(Locale.ROOT, "  %s %-8s run %d/%d (seed %d): %s%s%n", axis.key(), version, i + 1, runs, base + i,
                    r.verdict().wireName(), r.violations().isEmpty() ? "" : " " + r.violations().stream()
                            .map(k -> k.wireName()).sorted().toList());
        }
        return new Row(version, resolved, verdicts, kinds, first, dirs, onVersion.expectedVerdict());
    }

    /** The version of {@code name} a stored run's test.json records, or null. */
    private static String versionIn(Path runDir, String name) {
        try {
            com.fasterxml.jackson.databind.JsonNode v = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(RunDir.of(runDir).test().toFile()).path("versions").path(name);
            return v.isTextual() ? v.asText() : null;
        } catch (java.io.IOException e) {
            return null;
        }
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
     * The ZooKeeper release a stored run's servers said they were ({@code zookeeper.version=X-...} in their logs), when
     * they all said the same, or null.
     */
    static String zooKeeperOf(Path runDir) {
        java.util.Set<String> said = new java.util.TreeSet<>();
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("zookeeper\\.version=([0-9][^-,\\s]*)");
        try (java.util.stream.Stream<Path> logs = java.nio.file.Files.walk(runDir.resolve("servers"))) {
            for (Path log : logs.filter(f -> f.getFileName().toString().equals("server.log")).toList()) {
                java.util.regex.Matcher m = p.matcher(java.nio.file.Files.readString(log));
                if (m.find()) {
                    said.add(m.group(1));
                }
            }
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return null;
        }
        return said.size() == 1 ? said.iterator().next() : null;
    }

    /** The rows in version order, the linked version last (a bisection runs them out of order). */
    public static List<Row> inVersionOrder(Collection<Row> rows) {
        List<Row> all = new ArrayList<>(rows);
        all.sort((a, b) -> a.version().equals(b.version()) ? 0 : a.version().equals(ClientSpec.LINKED) ? 1
                : b.version().equals(ClientSpec.LINKED) ? -1 : CheckSpec.compareVersions(a.version(),
                b.version()));
        return all;
    }

    /**
     * Binary search for the first version whose outcome differs from the first version's, assuming the outcome
     * changes once in the range (a fix, or a regression).
     */
    public Map<String, Object> bisect(List<String> list, Map<String, Row> rows) throws Exception {
        Row first = run(list.get(0));
        rows.put(list.get(0), first);
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("from", list.get(0));
        b.put("to", list.get(list.size() - 1));
        b.put("from_outcome", first.outcome().wireName());
        if (list.size() == 1) {
            b.put("first_different", null);
            return b;
        }
        Row last = run(list.get(list.size() - 1));
        rows.put(list.get(list.size() - 1), last);
        if (first.outcome() == Verdict.UNKNOWN || last.outcome() == Verdict.UNKNOWN) {
            out.println("bisect: an end of the range gave no verdict (see its runs): nothing to bisect");
            b.put("first_different", null);
            return b;
        }
        if (last.outcome() == first.outcome()) {
            out.println("bisect: " + list.get(list.size() - 1) + " has the same outcome as " + list.get(0)
                    + " (" + first.outcome().wireName() + "): no change found in the range");
            b.put("first_different", null);
            return b;
        }
        int lo = 0;
        int hi = list.size() - 1; // lo has first's outcome, hi differs
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            Row r = run(list.get(mid));
            rows.put(list.get(mid), r);
            if (r.outcome() == Verdict.UNKNOWN) {
                out.println("bisect: " + list.get(mid) + " gave no verdict (see its runs): stopping here");
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
        out.println("bisect: first version whose outcome differs from " + list.get(0) + " ("
                + first.outcome().wireName() + "): " + list.get(hi) + " (" + rows.get(list.get(hi)).outcome()
                .wireName() + "); last with it: " + list.get(lo));
        b.put("first_different", list.get(hi));
        b.put("first_different_outcome", rows.get(list.get(hi)).outcome().wireName());
        b.put("last_same", list.get(lo));
        b.put("versions_run", rows.size());
        return b;
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    /** The table as a self-contained page: {@code workload} is the file's name as the user gave it. */
    public String html(String workload, List<Row> rows, Map<String, Object> bisection) {
        StringBuilder b = new StringBuilder();
        b.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>matrix ").append(esc(spec.name()))
                .append("</title><style>body{font-family:sans-serif}td,th{padding:4px 10px;border-bottom:1px solid"
                        + " #ccc;text-align:left}.no{color:#b00;font-weight:bold}.invalid{color:#b00}.valid{color:#070}"
                        + "</style></head><body>");
        b.append("<h1>").append(esc(spec.name())).append(" across ").append(esc(axis.title())).append("</h1>");
        b.append("<p>").append(esc(workload)).append(", ").append(runs).append(" run(s) per version</p>");
        b.append("<table><tr><th>").append(axis.key()).append("</th><th>resolved</th><th>runs</th><th>invalid</th><th>outcome</th>"
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
