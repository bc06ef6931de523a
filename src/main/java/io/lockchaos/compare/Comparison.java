package io.lockchaos.compare;

import io.lockchaos.checker.Recipe;
import io.lockchaos.client.LockRecipe;
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
    private final Plan plan;
    private final Path store;
    private final PrintStream out;
    private final long seed;

    /** Runs are stored under {@code store}; one progress line per run goes to {@code out}. */
    public Comparison(Plan plan, Path store, long seed, PrintStream out) {
        this.plan = plan;
        this.store = store;
        this.seed = seed;
        this.out = out;
    }

    /**
     * Measures every column.
     *
     * @throws IllegalArgumentException when the machine lacks what a column needs (redis-server, PostgreSQL), in one
     *     line, before that column's first run
     */
    public List<ColumnResult> run() throws Exception {
        List<ColumnResult> results = new ArrayList<>();
        for (Column c : plan.columns()) {
            results.add(measure(c));
        }
        return results;
    }

    private ColumnResult measure(Column c) throws Exception {
        List<Path> runs = new ArrayList<>();
        Map<FaultClass, Tally> reliability = new LinkedHashMap<>();
        List<Recovery> recoveries = new ArrayList<>();
        for (FaultClass f : plan.faults()) {
            Tally t = Tally.NONE;
            for (int i = 0; i < plan.runs(); i++) {
                Scenario s = base(c, c.recipe(), f.wireName()).set("clients", 3).set("hold_ms", f.holdMillis())
                        .set("acquire_timeout_ms", 10_000).set("time_s", plan.faultSeconds())
                        .nemesis(f.schedule()).seed(seed + i);
                ScenarioResult r = attempt(s, c, f.wireName() + " " + (i + 1) + "/" + plan.runs());
                t = t.plus(r);
                if (r == null) {
                    continue;
                }
                runs.add(r.dir());
                if (f == FaultClass.HOLDER_CUT_OFF) {
                    Recovery rec = Recovery.of(history(r));
                    if (rec != null) {
                        recoveries.add(rec);
                    }
                }
            }
            reliability.put(f, t);
        }
        Map<Integer, Double> perf = new LinkedHashMap<>();
        Map<String, Double> herd = new LinkedHashMap<>();
        String unit = "watch notifications";
        Tally load = Tally.NONE;
        for (int keys : plan.keyCounts()) {
            ScenarioResult r = load(c, c.recipe(), keys);
            load = load.plus(r);
            if (r == null) {
                continue;
            }
            runs.add(r.dir());
            Map<String, Object> th = Throughput.of(history(r));
            perf.put(keys, ((Number) th.get("acquires_per_s")).doubleValue());
            if (keys == plan.keyCounts().get(0) && c.herdRecipes().isEmpty() && th.get("tries_per_grant") != null) {
                herd.put(c.recipe(), ((Number) th.get("tries_per_grant")).doubleValue());
                unit = "requests";
            }
        }
        for (String recipe : c.herdRecipes()) {
            ScenarioResult r = load(c, recipe, 1);
            load = load.plus(r);
            if (r == null) {
                continue;
            }
            runs.add(r.dir());
            Object n = Throughput.of(history(r)).get("watch_notifications_per_grant");
            if (n != null) {
                herd.put(recipe, ((Number) n).doubleValue());
            }
        }
        return new ColumnResult(c, reliability, load, perf, herd, unit, codeLines(c.sources()),
                lockTypes(c.recipe()), recoveries, runs);
    }

    /** A fault-free run at the plan's load, or null when it could not be carried out. */
    private ScenarioResult load(Column c, String recipe, int keys) throws Exception {
        Scenario s = base(c, recipe, "load-" + keys + "-keys").set("clients", plan.clients()).set("keys", keys)
                .set("hold_ms", 1).set("acquire_timeout_ms", 5000).set("time_s", plan.loadSeconds()).seed(seed);
        return attempt(s, c, recipe + " at " + plan.clients() + " clients on " + keys + " key(s)");
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
            ScenarioResult r = s.run();
            out.printf(Locale.ROOT, "  %-22s %-40s %s%s (%.0f s)%n", c.title(), what, r.verdict().wireName(),
                    r.violations().isEmpty() ? "" : " " + r.violations().stream().map(k -> k.wireName()).sorted()
                            .toList(), (System.nanoTime() - start) / 1e9);
            return r;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(c.title() + ": " + e.getMessage(), e);
        } catch (io.lockchaos.core.SpecException e) {
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

    /** The kinds of lock lockchaos drives on the recipe's backend (raw ZooKeeper and Curator count as one). */
    static List<String> lockTypes(String recipe) {
        LockRecipe.Backend backend = group(LockRecipe.parse(recipe).backend());
        Set<String> types = new LinkedHashSet<>();
        for (LockRecipe.Kind k : LockRecipe.Kind.values()) {
            if (k == LockRecipe.Kind.USER || group(k.backend()) != backend) {
                continue;
            }
            Recipe p = (k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(2) : LockRecipe.of(k)).promises();
            if (p.readWrite()) {
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

    private static LockRecipe.Backend group(LockRecipe.Backend b) {
        return b == LockRecipe.Backend.CURATOR ? LockRecipe.Backend.ZOOKEEPER : b;
    }
}
