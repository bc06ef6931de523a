package io.lockchaos.cli;

import io.lockchaos.compare.Column;
import io.lockchaos.compare.ColumnResult;
import io.lockchaos.compare.Comparison;
import io.lockchaos.compare.Plan;
import io.lockchaos.compare.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code compare}: the tutorial's ZooKeeper / Redis / database table, each claim beside its measurement. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        header = "Measure the tutorial's comparison of ZooKeeper, Redis and database locks.",
        description = {"Runs a fixed plan (see Comparing locks in the manual) on Curator's InterProcessMutex (3"
            + " ZooKeeper servers), a Redis SET NX PX lock and a PostgreSQL advisory lock: each under the same faults"
            + " (holder paused, holder cut off, server killed) and the same load (100 clients on 1 and 10 keys), and"
            + " writes the tutorial's table with the measured value beside each claim as table.md and table.html.",
            "Exit code: 0 the table was written, 2 error (a backend this machine lacks is named in one line, before the"
            + " first run; a comparison stopped by a run writes the table of what it measured first)."})
final class CompareCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "one run per fault class and 3 s of load: a few minutes on 2 cores")
    boolean quick;

    @Option(names = "--runs", description = "runs per column and fault class (default: 5, with --quick 1)")
    Integer runs;

    @Option(names = "--locks", split = ",", description = "the recipes to compare, comma-separated (e.g."
            + " shedlock-jdbc,pg-lease,redisson): a column each, under the same plan (default: the tutorial's four)")
    List<String> locks;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the first run of each fault class; run i"
            + " uses seed + i (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--store", defaultValue = "histories", description = "where the runs are stored (default:"
            + " ${DEFAULT-VALUE})")
    Path store;

    @Option(names = "--out", description = "folder for table.md and table.html (default: <store>/compare/<time>)")
    Path out;

    @Override
    public Integer call() throws Exception {
        Plan plan = quick ? Plan.quick() : Plan.full();
        try {
            if (runs != null) {
                plan = plan.withRuns(runs);
            }
            if (locks != null) {
                List<Column> columns = new java.util.ArrayList<>();
                for (String l : locks) {
                    try {
                        columns.add(Column.of(l.trim()));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("--locks: " + e.getMessage(), e);
                    }
                }
                plan = plan.withColumns(columns);
            }
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        String when = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path dir = out != null ? out : store.resolve("compare").resolve(when);
        Files.createDirectories(dir);
        ClientLog.redirect(dir.resolve("client.log"), false);
        System.out.println("compare: " + plan.columns().size() + " columns, " + plan.runs() + " run(s) per fault class,"
                + " " + plan.loadSeconds() + " s of load; runs stored under " + store);
        List<ColumnResult> results;
        String stopped = null;
        try {
            results = new Comparison(plan, store, seed, System.out).run();
        } catch (IllegalArgumentException e) {
            throw new UserError("compare: " + e.getMessage());
        } catch (Comparison.Stopped e) {
            // minutes of runs are not thrown away: the table says what they measured and where it stopped
            results = e.partial();
            stopped = e.getMessage();
        }
        Table table = new Table(plan, results, "on " + when.substring(0, 8) + " with " + Runtime.getRuntime()
                .availableProcessors() + " cores");
        String md = table.markdown();
        Files.writeString(dir.resolve("table.md"), md, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("table.html"), table.html(), StandardCharsets.UTF_8);
        System.out.println();
        System.out.print(md);
        System.out.println("  table: " + dir.resolve("table.md"));
        System.out.println("  page: " + dir.resolve("table.html"));
        if (stopped != null) {
            throw new UserError("compare: stopped before the plan's end (the table shows what was measured): "
                    + stopped);
        }
        return 0;
    }
}
