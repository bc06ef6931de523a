package io.lockchaos.cli;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.checker.Verdict;
import io.lockchaos.client.Library;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockServices;
import io.lockchaos.core.ClientSpec;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.scenario.VersionMatrix;
import io.lockchaos.scenario.VersionMatrix.Row;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code matrix}: one workload on several Curator versions or ZooKeeper server releases, {@code --runs} times each,
 * against the verdicts the workload expects per version ({@code expect_by_curator}, {@code expect_by_zookeeper}); or
 * {@code --bisect [zookeeper:]A..B}: the first version in a range whose outcome differs from A's.
 */
@Command(name = "matrix", mixinStandardHelpOptions = true,
        header = "Run a workload on several Curator versions or ZooKeeper releases and compare with its expected"
            + " verdicts.",
        description = {"Runs the workload --runs times on each Curator version (in client agents; 'linked' is the"
            + " in-process 5.9.0) or each ZooKeeper release of the servers ('linked' is 3.9.5), prints version x (runs,"
            + " invalid, violation kinds, median time of the first violation), and writes matrix.json and matrix.html."
            + " With --bisect A..B it finds the first Curator version of the range (zookeeper:A..B: ZooKeeper release)"
            + " whose outcome differs from A's (assuming one change in the range).",
            "A version's outcome is invalid when any run was invalid, valid when every run was valid, else unknown.",
            "Exit code: 0 every version as expected, 1 a version not as expected, 2 error."})
final class MatrixCommand implements Callable<Integer> {
    @Option(names = "--workload", required = true, description = "workload file (JSON); its expect_by_curator or"
            + " expect_by_zookeeper (or expect) states the verdict per version")
    Path workload;

    @Option(names = "--curator", split = ",", description = "Curator versions to run, comma-separated (e.g."
            + " 5.2.0,5.4.0,5.5.0,5.9.0)")
    List<String> versions;

    @Option(names = "--zookeeper", split = ",", description = "ZooKeeper releases for the servers, comma-separated"
            + " (e.g. 3.5.10,3.8.4,linked)")
    List<String> zooKeeperVersions;

    @Option(names = "--library", split = ",", description = "releases of the library the workload's recipe wraps,"
            + " comma-separated (e.g. 5.16.0,6.3.1 for shedlock-jdbc)")
    List<String> libraryVersions;

    @Option(names = "--bisect", description = "A..B: find the first Curator version from A to B whose outcome differs"
            + " from A's; zookeeper:A..B: the first ZooKeeper release")
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

    @Override
    public Integer call() throws Exception {
        if ((versions != null ? 1 : 0) + (zooKeeperVersions != null ? 1 : 0) + (libraryVersions != null ? 1 : 0)
                + (bisect != null ? 1 : 0) != 1) {
            throw new UserError("matrix: give one of --curator V1,V2,..., --zookeeper V1,V2,..., --library"
                    + " V1,V2,... or --bisect A..B");
        }
        TestSpec spec;
        try {
            spec = TestSpecs.load(workload);
        } catch (SpecException e) {
            throw new UserError(e.getMessage());
        }
        String range = bisect;
        VersionResolver.Module module = zooKeeperVersions != null ? VersionResolver.Module.ZOOKEEPER
                : VersionResolver.Module.CURATOR;
        for (VersionResolver.Module m : VersionResolver.Module.values()) {
            if (bisect != null && bisect.startsWith(m.key() + ":")) {
                module = m;
                range = bisect.substring(m.key().length() + 1);
            }
        }
        if (module == VersionResolver.Module.ZOOKEEPER
                && !LockServices.of(spec.recipe()).keys().contains("zookeeper")) {
            throw new UserError(workload + ": matrix over ZooKeeper releases: recipe " + spec.recipe().wireName()
                    + " runs on no ZooKeeper");
        }
        VersionResolver resolver = VersionResolver.defaults(module);
        VersionMatrix.Axis axis = VersionMatrix.Axis.of(module);
        if (libraryVersions != null) {
            Library library = spec.recipe().kind().library();
            if (library == null) {
                throw new UserError(workload + ": matrix over library releases: recipe " + spec.recipe().wireName()
                        + " wraps no library (use " + LockRecipe.Names.libraries() + ")");
            }
            resolver = VersionResolver.defaults(VersionResolver.Artifact.of(spec.recipe().kind()));
            axis = VersionMatrix.Axis.library(library);
        }
        int dots = range == null ? -1 : range.indexOf("..");
        if (range != null && dots < 0) {
            throw new UserError("--bisect: expected A..B or zookeeper:A..B, got '" + bisect + "'");
        }
        Path dir = out != null ? out : store.resolve(spec.name()).resolve("matrix-"
                + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(java.time.ZoneOffset.UTC)
                .format(java.time.Instant.now()));
        // the clients' own logging goes to a file, off the table's console: set before any logger exists
        Files.createDirectories(dir);
        ClientLog.redirect(dir.toAbsolutePath().resolve("client.log"), false);
        List<String> list;
        if (range != null) {
            try {
                list = resolver.versions(range.substring(0, dots), range.substring(dots + 2));
            } catch (VersionResolver.UnresolvableVersion e) {
                throw new UserError("--bisect: " + e.getMessage());
            }
            System.out.println("bisect: " + list.size() + " released versions from " + list.get(0) + " to "
                    + list.get(list.size() - 1) + ": " + String.join(", ", list));
        } else {
            list = versions != null ? versions : zooKeeperVersions != null ? zooKeeperVersions : libraryVersions;
            // every version resolved before the first run: a typo found after an hour of runs would waste them
            for (String v : list) {
                if (!v.equals(ClientSpec.LINKED)) {
                    try {
                        resolver.classpath(v);
                    } catch (VersionResolver.UnresolvableVersion e) {
                        throw new UserError(e.getMessage());
                    }
                }
            }
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        Map<String, Object> bisection = null;
        long base = seed != null ? seed : spec.seed() != 0 ? spec.seed() : 1;
        VersionMatrix matrix;
        try {
            matrix = new VersionMatrix(spec, runs, store, base, resolver, axis, System.out);
            if (bisect == null) {
                for (String v : list) {
                    rows.put(v, matrix.run(v));
                }
            } else {
                bisection = matrix.bisect(list, rows);
            }
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        List<Row> all = VersionMatrix.inVersionOrder(rows.values());
        print(spec, axis, all);
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
        Files.writeString(dir.resolve("matrix.html"), matrix.html(workload.toString(), all, bisection), StandardCharsets.UTF_8);
        System.out.println("  matrix: " + dir.resolve("matrix.json"));
        System.out.println("  table: " + dir.resolve("matrix.html"));
        boolean met = all.stream().allMatch(Row::asExpected);
        return met ? 0 : 1;
    }

    private void print(TestSpec spec, VersionMatrix.Axis axis, List<Row> rows) {
        System.out.println("matrix " + spec.name() + ": " + runs + " run(s) per version");
        System.out.printf(Locale.ROOT, "  %-10s %-10s %5s %8s  %-10s %-9s %-14s %s%n", axis.key(), "resolved", "runs",
                "invalid", "expected", "as exp.", "first viol. s", "violation kinds");
        for (Row r : rows) {
            Double med = r.medianFirstViolation();
            System.out.printf(Locale.ROOT, "  %-10s %-10s %5d %8d  %-10s %-9s %-14s %s%n", r.version(),
                    r.resolved() == null ? "?" : r.resolved(), r.verdicts().size(), r.count(Verdict.INVALID),
                    r.expected().map(Verdict::wireName).orElse("-"), r.asExpected() ? "yes" : "NO",
                    med == null ? "-" : String.format(Locale.ROOT, "%.3f", med), String.join(", ", r.kinds()));
        }
    }
}
