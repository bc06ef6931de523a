package io.lockchaos.compare;

import io.lockchaos.api.Backend;
import io.lockchaos.checker.Recipe;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.core.Preflight;
import io.lockchaos.core.SpecException;
import io.lockchaos.history.History;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.report.Throughput;
import io.lockchaos.scenario.Scenario;
import io.lockchaos.scenario.ScenarioResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Runs a {@link Plan}: every column under every fault class, then under load, and reads its recipe's code. */
public final class Comparison {
    /** How one run is carried out: {@link Scenario#run} but in tests that make a run fail on purpose. */
    interface Runs {
        ScenarioResult run(Scenario s) throws Exception;
    }

    /**
     * A comparison that stopped before the plan's end (a run found the machine lacking something, or failed in a way
     * that is not the run's own): {@link #partial} holds what was measured, the column it stopped in and every
     * column after it marked as stopped. The message is one line.
     */
    public static final class Stopped extends Exception {
        private final transient List<ColumnResult> partial;

        Stopped(String message, List<ColumnResult> partial, Throwable cause) {
            super(message, cause);
            this.partial = List.copyOf(partial);
        }

        /** Every column of the plan, in order: those measured in full, then the stopped ones. */
        public List<ColumnResult> partial() {
            return partial;
        }
    }

    private final Plan plan;
    private final Path store;
    private final PrintStream out;
    private final long seed;
    private final Runs runs;

    /** Runs are stored under {@code store}; one progress line per run goes to {@code out}. */
    public Comparison(Plan plan, Path store, long seed, PrintStream out) {
        this(plan, store, seed, out, Scenario::run);
    }

    Comparison(Plan plan, Path store, long seed, PrintStream out, Runs runs) {
        this.plan = plan;
        this.store = store;
        this.seed = seed;
        this.out = out;
        this.runs = runs;
    }

    /**
     * Measures every column.
     *
     * @throws IllegalArgumentException when the machine lacks what a column needs (redis-server, PostgreSQL, etcd),
     *     in one line, before the first run of any column
     * @throws Stopped when a run stops the comparison anyway, with what was measured until then
     */
    public List<ColumnResult> run() throws Stopped {
        preflight();
        List<ColumnResult> results = new ArrayList<>();
        for (Column c : plan.columns()) {
            Measured m = new Measured(c);
            try {
                measure(c, m);
            } catch (Exception e) {
                String why = e instanceof IllegalArgumentException ? e.getMessage() : c.title() + ": " + oneLine(e);
                results.add(m.result("the comparison stopped here: " + why));
                for (Column later : plan.columns().subList(results.size(), plan.columns().size())) {
                    results.add(new Measured(later).result("the comparison stopped before this column (in "
                            + c.title() + ")"));
                }
                throw new Stopped(why, results, e);
            }
            results.add(m.result(null));
        }
        return results;
    }

    /**
     * Checks what every run of every column needs (its recipe's and its herd recipes' servers and binaries, what its
     * faults need) before the first run: a missing backend found at the last column would otherwise cost every run
     * before it.
     */
    void preflight() {
        for (Column c : plan.columns()) {
            List<Scenario> first = new ArrayList<>();
            plan.faults().forEach(f -> first.add(faultRun(c, f, 0)));
            plan.keyCounts().forEach(k -> first.add(loadRun(c, c.recipe(), k)));
            c.herdRecipes().forEach(r -> first.add(loadRun(c, r, 1)));
            for (Scenario s : first) {
                try {
                    Preflight.check(s.spec(), null);
                } catch (SpecException | IllegalArgumentException e) {
                    throw new IllegalArgumentException(c.title() + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /** The {@code i}th reliability run of column {@code c} under {@code f}. */
    private Scenario faultRun(Column c, FaultClass f, int i) {
        return base(c, c.recipe(), f.wireName()).set("clients", 3).set("hold_ms", f.holdMillis())
                .set("acquire_timeout_ms", 10_000).set("time_s", plan.faultSeconds()).nemesis(f.schedule())
                .seed(seed + i);
    }

    /** A fault-free run of {@code recipe} at the plan's load on {@code keys} keys. */
    private Scenario loadRun(Column c, String recipe, int keys) {
        return base(c, recipe, "load-" + keys + "-keys").set("clients", plan.clients()).set("keys", keys)
                .set("hold_ms", 1).set("acquire_timeout_ms", 5000).set("time_s", plan.loadSeconds()).seed(seed);
    }

    /** What one column's runs have measured so far. */
    private final class Measured {
        final Column column;
        final List<Path> runs = new ArrayList<>();
        final Map<FaultClass, Tally> reliability = new LinkedHashMap<>();
        final List<Recovery> recoveries = new ArrayList<>();
        final Map<Integer, Double> perf = new LinkedHashMap<>();
        final Map<String, Double> herd = new LinkedHashMap<>();
        String unit = "watch notifications";
        Tally load = Tally.NONE;

        Measured(Column column) {
            this.column = column;
        }

        ColumnResult result(String stopped) {
            int lines;
            try {
                lines = codeLines(column.sources());
            } catch (IOException e) {
                lines = -1; // a jar without its sources still gets its table; the cell says so
            }
            return new ColumnResult(column, reliability, load, perf, herd, unit, lines, lockTypes(column.recipe()),
                    recoveries, runs, stopped);
        }
    }

    private void measure(Column c, Measured m) throws Exception {
        for (FaultClass f : plan.faults()) {
            Tally t = Tally.NONE;
            for (int i = 0; i < plan.runs(); i++) {
                ScenarioResult r = attempt(faultRun(c, f, i), c, f.wireName() + " " + (i + 1) + "/" + plan.runs());
                t = t.plus(r);
                if (r == null) {
                    continue;
                }
                m.runs.add(r.dir());
                if (f == FaultClass.HOLDER_CUT_OFF) {
                    Recovery rec = Recovery.of(history(r));
                    if (rec != null) {
                        m.recoveries.add(rec);
                    }
                }
            }
            m.reliability.put(f, t);
        }
        for (int keys : plan.keyCounts()) {
            ScenarioResult r = load(c, c.recipe(), keys);
            m.load = m.load.plus(r);
            if (r == null) {
                continue;
            }
            m.runs.add(r.dir());
            Map<String, Object> th = Throughput.of(history(r));
            m.perf.put(keys, ((Number) th.get("acquires_per_s")).doubleValue());
            if (keys == plan.keyCounts().get(0) && c.herdRecipes().isEmpty() && th.get("tries_per_grant") != null) {
                m.herd.put(c.recipe(), ((Number) th.get("tries_per_grant")).doubleValue());
                m.unit = "requests";
            }
        }
        for (String recipe : c.herdRecipes()) {
            ScenarioResult r = load(c, recipe, 1);
            m.load = m.load.plus(r);
            if (r == null) {
                continue;
            }
            m.runs.add(r.dir());
            Object n = Throughput.of(history(r)).get("watch_notifications_per_grant");
            if (n != null) {
                m.herd.put(recipe, ((Number) n).doubleValue());
            }
        }
    }

    private static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ");
    }

    /** A fault-free run at the plan's load, or null when it could not be carried out. */
    private ScenarioResult load(Column c, String recipe, int keys) throws Exception {
        return attempt(loadRun(c, recipe, keys), c, recipe + " at " + plan.clients() + " clients on " + keys
                + " key(s)");
    }

    private Scenario base(Column c, String recipe, String what) {
        Scenario s = Scenario.builder().name("compare-" + recipe + "-" + what).recipe(recipe).nodes(c.nodes())
                .set("open_tries", 10).store(store);
        c.keys().forEach(s::set);
        return s;
    }

    /** One run; null (said on {@code out}) when it failed for a reason of its own rather than the machine's. */
    private ScenarioResult attempt(Scenario s, Column c, String what) throws Exception {
        long start = System.nanoTime();
        try {
            ScenarioResult r = runs.run(s);
            out.printf(Locale.ROOT, "  %-22s %-40s %s%s (%.0f s)%n", c.title(), what, r.verdict().wireName(),
                    r.violations().isEmpty() ? "" : " " + r.violations().stream().map(k -> k.wireName()).sorted()
                            .toList(), (System.nanoTime() - start) / 1e9);
            return r;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(c.title() + ": " + e.getMessage(), e);
        } catch (SpecException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        } catch (Exception e) {
            out.printf(Locale.ROOT, "  %-22s %-40s unknown: the run failed: %s%n", c.title(), what, e);
            return null;
        }
    }

    private static History history(ScenarioResult r) throws Exception {
        return JsonlHistoryReader.read(r.dir().resolve("history.jsonl"));
    }

    /** Code lines of bundled sources: not blank, not a comment, not a package or import line. */
    static int codeLines(List<String> sources) throws IOException {
        int n = 0;
        for (String path : sources) {
            try (InputStream in = Comparison.class.getResourceAsStream("/lockchaos-sources/" + path)) {
                if (in == null) {
                    throw new IOException("compare: the jar lacks the source " + path + " (see pom.xml's resources)");
                }
                n += codeLines(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return n;
    }

    static int codeLines(String source) {
        int n = 0;
        boolean inComment = false;
        for (String raw : source.split("\n")) {
            String l = raw.trim();
            if (inComment) {
                inComment = !l.contains("*/");
                continue;
            }
            if (l.startsWith("/*")) {
                inComment = !l.contains("*/");
                continue;
            }
            if (l.isEmpty() || l.startsWith("//") || l.startsWith("package ") || l.startsWith("import ")) {
                continue;
            }
            n++;
        }
        return n;
    }

    /** The kinds of lock lockchaos drives on the recipe's backend (raw ZooKeeper and Curator are both ZooKeeper's). */
    static List<String> lockTypes(String recipe) {
        Backend backend = LockRecipe.parse(recipe).backend();
        Set<String> types = new LinkedHashSet<>();
        for (LockRecipe.Kind k : LockRecipe.Kind.values()) {
            if (k == LockRecipe.Kind.USER || k.backend() != backend) {
                continue;
            }
            Recipe p = (k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(2) : LockRecipe.of(k)).promises();
            if (p.leadership()) {
                types.add("leader election");
            } else if (p.readWrite()) {
                types.add("read-write");
            } else if (k == LockRecipe.Kind.SEMAPHORE) {
                types.add("semaphore");
            } else if (k == LockRecipe.Kind.MULTI) {
                types.add("multi-lock");
            } else {
                types.add(p.reentrant() ? "reentrant" : "exclusive");
            }
        }
        return List.copyOf(types);
    }
}
