package io.lockchaos.scenario;

import io.lockchaos.client.LockServices;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Runs a base test again and again with random fault schedules and workload parameters, every run's seed derived
 * from one seed, and stops at the first invalid verdict. The recipe, the client mode and the ensemble stay as the
 * base has them: they are what is under test.
 */
public final class Explorer {
    /** Fault kinds explored on any ensemble, and those that need 3 or more servers. */
    private static final List<String> KINDS = List.of("isolate-client", "pause-client", "expire",
            "expire-client-side", "kill", "pause");
    private static final List<String> ENSEMBLE_KINDS = List.of("partition-halves", "isolate-server");
    /**
     * Fault kinds explored on Redis instances and PostgreSQL servers: no sessions to expire, no leader, and nothing
     * between servers to cut (they do not talk to each other).
     */
    private static final List<String> SESSIONLESS_KINDS = List.of("isolate-client", "pause-client", "kill", "pause");
    /** Holds as fractions of the session timeout (or lease): partitions only hurt holders that outlive one. */
    private static final double[] HOLDS = {0.05, 0.5, 2, 3};

    private final TestSpec base;
    private final long seed;
    private final Path store;
    private final PrintStream console;

    /**
     * @param console where each run's one line goes, or null
     */
    public Explorer(TestSpec base, long seed, Path store, PrintStream console) {
        this.base = base;
        this.seed = seed;
        this.store = store;
        this.console = console;
    }

    /** The seed of run {@code i} (0-based). */
    public long seedOf(int i) {
        return seedOf(seed, i);
    }

    /** The seed of run {@code i} (0-based) of a campaign seeded with {@code seed}. */
    public static long seedOf(long seed, int i) {
        SplittableRandom root = new SplittableRandom(seed);
        long s = 0;
        for (int k = 0; k <= i; k++) {
            s = root.nextLong(); // mixed outputs: seeds a fixed stride apart would give shifted copies of one stream
        }
        return s;
    }

    /** Run {@code i}'s test: the base with a random schedule and parameters from {@link #seedOf}. */
    public TestSpec runSpec(int i) throws SpecException {
        long s = seedOf(i);
        SplittableRandom r = new SplittableRandom(s);
        boolean sessions = LockServices.of(base.recipe()).sessions();
        List<String> pool = new ArrayList<>(sessions ? KINDS : SESSIONLESS_KINDS);
        if (sessions && base.cluster().nodes() >= 3) {
            pool.addAll(ENSEMBLE_KINDS);
        }
        List<String> kinds = new ArrayList<>();
        int n = 1 + r.nextInt(3);
        while (kinds.size() < n) {
            String k = pool.get(r.nextInt(pool.size()));
            if (!kinds.contains(k)) {
                kinds.add(k);
            }
        }
        // the time scale faults are measured against: a ZooKeeper session, or the lease of a leased lock
        long session = base.recipe().promises().leased() ? base.redis().leaseMillis()
                : base.clients().sessionTimeoutMillis();
        long every = session + 500 + r.nextInt((int) session * 2);
        long duration = Math.max(500, Math.min(every, session / 2 + r.nextInt((int) session * 2)));
        long from = 500 + r.nextInt(1000);
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("seed", Long.toString(s));
        long time = Math.max(base.workload().timeSeconds(), from / 1000 + 2);
        List<String> timeline = new ArrayList<>();
        for (long t = from; t < time * 1000; t += every) {
            String kind = kinds.get(r.nextInt(kinds.size()));
            timeline.add("at " + t + "ms " + kind + " " + target(kind, sessions, r)
                    + (kind.startsWith("expire") ? "" : " for " + duration + "ms"));
        }
        keys.put("nemesis", String.join("; ", timeline));
        keys.put("time_s", Long.toString(time));
        keys.put("hold_ms", Long.toString(Math.round(HOLDS[r.nextInt(HOLDS.length)] * session)));
        keys.put("clients", Integer.toString(2 + r.nextInt(Math.max(1, Math.min(base.clients().count(), 6) - 1))));
        if (!base.recipe().spansKeys()) {
            keys.put("keys", "1"); // one lock makes the holders meet; a multi-lock needs its keys
        }
        keys.put("acquire_timeout_ms", Long.toString(Math.max(base.workload().acquireTimeoutMillis(), 2 * session)));
        return TestSpecs.validate("explore", TestSpecs.with("explore", base, keys));
    }

    /**
     * A target for a fault kind: mostly the holder for client faults, since that is where locks break; a server of
     * any role on ZooKeeper ({@code byRole}: the service of sessions), any server elsewhere.
     */
    private static String target(String kind, boolean byRole, SplittableRandom r) {
        if (kind.startsWith("partition")) {
            return "";
        }
        if (kind.equals("kill") || kind.equals("pause") || kind.equals("isolate-server")) {
            return byRole ? List.of("leader", "follower", "random").get(r.nextInt(3)) : "random";
        }
        double x = r.nextDouble();
        if (kind.equals("pause-client")) {
            return x < 0.8 ? "holder" : "random";
        }
        return x < 0.7 ? "holder" : x < 0.85 ? "next-waiter" : "random";
    }

    /**
     * Runs up to {@code runs} tests and returns the first invalid one.
     *
     * @return the invalid run, or empty when none of them was
     */
    public Optional<ScenarioResult> explore(int runs) throws Exception {
        for (int i = 0; i < runs; i++) {
            TestSpec spec = runSpec(i);
            ScenarioResult r = Scenario.run(spec, store, null);
            if (console != null) {
                console.printf("  explore %d/%d: seed %d, %s, hold %d ms, %d clients: %s%s%n", i + 1, runs,
                        spec.seed(), spec.faults().nemesis(), spec.workload().holdMillis(), spec.clients().count(),
                        r.verdict().name().toLowerCase(java.util.Locale.ROOT),
                        r.isInvalid() ? " " + r.violations() : "");
            }
            if (r.isInvalid()) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
