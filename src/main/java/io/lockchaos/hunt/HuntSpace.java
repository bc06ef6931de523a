package io.lockchaos.hunt;

import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.scenario.Explorer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What a hunt draws from: every recipe of the registry whose servers this machine can start (or those asked for), on
 * the Curator releases asked for, in the client mode Curator's documentation asks for, with a random workload shape
 * and a random schedule of the faults the recipe's service takes (the workload validation decides which: a kind it
 * refuses is dropped from that recipe's pool). Run {@code i}'s test comes from the hunt's seed alone, so a hunt is
 * drawn again the same from its seed; nothing is drawn from the bug zoo, and a draw equal to a zoo workload is drawn
 * again.
 */
public final class HuntSpace {
    /** Every fault kind a hunt may draw, before a service refuses some. */
    static final List<String> KINDS = List.of("isolate-client", "pause-client", "expire", "expire-client-side", "kill",
            "pause", "partition-halves", "isolate-server", "interrupt");
    /** Holds as fractions of the session timeout: partitions only hurt holders that outlive one. */
    private static final double[] HOLDS = {0.05, 0.3, 1, 2};
    /**
     * Holds as fractions of a leased lock's lease: always within it, as such a lock promises one holder only while no
     * holder outlives its lease (a 20 s hold on a 10 s lease is a double holder with no fault at all).
     */
    private static final double[] LEASED_HOLDS = {0.05, 0.2, 0.5};

    private final List<LockRecipe> recipes;
    private final List<String> curators;
    private final String clientMode;
    private final long seed;
    private final List<Map<String, Object>> zoo;

    /**
     * @param recipes what to draw from
     * @param curators the Curator versions a Curator recipe's clients run, one drawn per run ({@code linked}: the
     *     in-process one)
     * @param clientMode how a ZooKeeper recipe's holder treats its connection states ({@code stop-on-suspended},
     *     as Curator's documentation asks: a hunt looks for bugs of the locks, not of clients that ignore them)
     * @param zoo the bug zoo's tests, never drawn
     */
    public HuntSpace(List<LockRecipe> recipes, List<String> curators, String clientMode, long seed,
                     List<TestSpec> zoo) {
        if (recipes.isEmpty()) {
            throw new IllegalArgumentException("no recipe to hunt on");
        }
        this.recipes = List.copyOf(recipes);
        this.curators = curators.isEmpty() ? List.of("linked") : List.copyOf(curators);
        this.clientMode = clientMode;
        this.seed = seed;
        this.zoo = zoo.stream().map(HuntSpace::comparable).toList();
    }

    /** Every built-in recipe whose service this machine can run (its {@code missing()} says nothing). */
    public static List<LockRecipe> runnableHere() {
        List<LockRecipe> out = new ArrayList<>();
        for (LockRecipe.Kind k : LockRecipe.Kind.values()) {
            if (k == LockRecipe.Kind.USER) {
                continue;
            }
            LockRecipe r = k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(2) : LockRecipe.of(k);
            LockService s = LockServices.of(r);
            if (s.missing() == null) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Run {@code i}'s test.
     *
     * @throws SpecException when no recipe could be given a test here in many tries (the last refusal)
     */
    public TestSpec draw(int i) throws SpecException {
        SplittableRandom r = new SplittableRandom(Explorer.seedOf(seed, i));
        SpecException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            LockRecipe recipe = recipes.get(r.nextInt(recipes.size()));
            try {
                TestSpec s = drawFor(recipe, r);
                if (!zoo.contains(comparable(s))) {
                    return s;
                }
            } catch (SpecException e) {
                last = e;
            }
        }
        throw last != null ? last : new SpecException("hunt: every draw was a bug zoo workload");
    }

    /** A test of {@code recipe}: a shape that its service takes, then faults it takes. */
    private TestSpec drawFor(LockRecipe recipe, SplittableRandom r) throws SpecException {
        LockService service = LockServices.of(recipe);
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("name", "hunt-" + recipe.wireName().replace(':', '-'));
        keys.put("seed", Long.toString(r.nextLong()));
        keys.put("recipe", recipe.wireName());
        if (recipe.curator()) {
            keys.put("curator", curators.get(r.nextInt(curators.size())));
        }
        if (service.sessions()) {
            keys.put("client_mode", clientMode);
            keys.put("session_timeout_ms", Long.toString(List.of(2000L, 3000L, 4000L).get(r.nextInt(3))));
        }
        // an application's own choices, now and then: no retries and a short connection timeout for Curator (a call
        // then throws while its session lives), and a client kept after a call that threw
        if (recipe.curator() && r.nextInt(4) == 0) {
            keys.put("lock_settings", "{\"retry_times\": 0, \"connection_timeout_ms\": " + (200 + 100 * r.nextInt(4))
                    + "}");
        }
        if (r.nextInt(4) == 0) {
            keys.put("after_unknown", "keep-client");
        }
        if (recipe.kind() == LockRecipe.Kind.READ_WRITE) {
            keys.put("read_pct", List.of("0", "50").get(r.nextInt(2)));
            keys.put("downgrade_pct", List.of("0", "50", "100").get(r.nextInt(3)));
        }
        TestSpec base = null;
        SpecException refused = null;
        List<String> nodes = new ArrayList<>(List.of("3", "1", "5"));
        if (r.nextInt(3) == 0) {
            java.util.Collections.swap(nodes, 0, 1 + r.nextInt(2));
        }
        for (String n : nodes) {
            keys.put("nodes", n);
            try {
                base = TestSpecs.validate("hunt", TestSpecs.with("hunt", TestSpec.DEFAULTS, keys));
                break;
            } catch (SpecException e) {
                refused = e;
            }
        }
        if (base == null) {
            throw refused;
        }
        long scale = recipe.promises().leased() ? base.redis().leaseMillis() : base.clients().sessionTimeoutMillis();
        double[] holds = recipe.promises().leased() ? LEASED_HOLDS : HOLDS;
        keys.put("hold_ms", Long.toString(Math.max(20, Math.round(holds[r.nextInt(holds.length)] * scale))));
        keys.put("clients", Integer.toString(2 + r.nextInt(4)));
        keys.put("time_s", Long.toString(6 + r.nextInt(7)));
        keys.put("acquire_timeout_ms", Long.toString(Math.max(base.workload().acquireTimeoutMillis(), 2 * scale)));
        if (!recipe.spansKeys()) {
            keys.put("keys", "1");
        }
        List<String> pool = new ArrayList<>(KINDS);
        for (int tries = 0; tries < KINDS.size() + 1 && !pool.isEmpty(); tries++) {
            long runMillis = Long.parseLong(keys.get("time_s")) * 1000;
            keys.put("nemesis", schedule(pool, scale, runMillis, service.sessions(), r));
            try {
                return TestSpecs.validate("hunt", TestSpecs.with("hunt", TestSpec.DEFAULTS, keys));
            } catch (SpecException e) {
                refused = e;
                String kind = refusedKind(e.getMessage());
                if (kind == null || !pool.remove(kind)) {
                    break; // not a fault's refusal: this shape does not run
                }
            }
        }
        keys.remove("nemesis");
        // no fault this recipe takes: a run without faults still hunts (CURATOR-621 needs none)
        return TestSpecs.validate("hunt", TestSpecs.with("hunt", TestSpec.DEFAULTS, keys));
    }

    /** The fault kind a refusal names ({@code hunt: nemesis: expire holder: ...}), or null. */
    static String refusedKind(String message) {
        int at = message.indexOf("nemesis: ");
        if (at < 0) {
            return null;
        }
        String rest = message.substring(at + "nemesis: ".length()).replace("'", "").replace("at ", " ");
        for (String w : rest.split("[\\s:]+")) {
            if (FaultKind.parse(w) != null && KINDS.contains(w)) {
                return w;
            }
        }
        return null;
    }

    /** One to three kinds from {@code pool}, each applied again and again over the run. */
    private static String schedule(List<String> pool, long scale, long runMillis, boolean byRole, SplittableRandom r) {
        List<String> kinds = new ArrayList<>();
        int n = 1 + r.nextInt(Math.min(3, pool.size()));
        while (kinds.size() < n) {
            String k = pool.get(r.nextInt(pool.size()));
            if (!kinds.contains(k)) {
                kinds.add(k);
            }
        }
        long every = scale + 500 + r.nextInt((int) scale * 2);
        long duration = Math.max(500, Math.min(every, scale / 2 + r.nextInt((int) scale * 2)));
        List<String> timeline = new ArrayList<>();
        if (kinds.remove("interrupt")) {
            timeline.add(interrupts(r));
            if (kinds.isEmpty()) {
                return timeline.get(0);
            }
        }
        for (long t = 500 + r.nextInt(1000); t < runMillis - 500; t += every) {
            String kind = kinds.get(r.nextInt(kinds.size()));
            String target = target(kind, byRole, r);
            // some cut clients lose only the answers: what they send still takes (a lost response), which matters
            // most to a release
            String options = kind.equals("isolate-client") && (target.equals("releaser") ? r.nextBoolean()
                    : r.nextInt(3) == 0) ? " one_way=1" : "";
            timeline.add("at " + t + "ms " + kind + (target.isEmpty() ? "" : " " + target) + options
                    + (kind.startsWith("expire") ? "" : " for " + duration + "ms"));
        }
        return String.join("; ", timeline);
    }

    /**
     * Interrupts of waiters, again and again over the run: one interrupt at a set time rarely meets a waiter's request
     * on the wire, and right after a release, when waiters resend their acquire, is where it most often does (how the
     * bug zoo's Redisson interrupt bugs show); half the time the interrupted client then unlocks as a {@code finally}
     * would.
     */
    private static String interrupts(SplittableRandom r) {
        long every = List.of(60L, 150L, 400L).get(r.nextInt(3));
        return "every " + every + "ms interrupt " + (r.nextBoolean() ? "waiter" : "next-waiter")
                + (r.nextBoolean() ? " release=1" : "") + (r.nextInt(4) == 0 ? "" : " after_release=1 delay_us="
                + List.of(0, 500, 2000).get(r.nextInt(3))) + " from 1s";
    }

    /** Mostly the holder for client faults; any role, or every server, for server faults. */
    private static String target(String kind, boolean byRole, SplittableRandom r) {
        if (kind.startsWith("partition")) {
            return "";
        }
        if (kind.equals("kill") || kind.equals("pause")) {
            List<String> targets = byRole ? List.of("leader", "follower", "random", "all") : List.of("random", "all");
            return targets.get(r.nextInt(targets.size()));
        }
        if (kind.equals("isolate-server")) {
            return byRole ? List.of("leader", "follower", "random").get(r.nextInt(3)) : "random";
        }
        double x = r.nextDouble();
        if (kind.equals("pause-client")) {
            return x < 0.8 ? "holder" : "random";
        }
        if (kind.equals("isolate-client")) {
            return x < 0.55 ? "holder" : x < 0.7 ? "releaser" : x < 0.85 ? "next-waiter" : "random";
        }
        return x < 0.7 ? "holder" : x < 0.85 ? "next-waiter" : "random";
    }

    /** A test as the zoo is compared with it: its keys, without its name and seed. */
    private static Map<String, Object> comparable(TestSpec s) {
        Map<String, Object> m = new LinkedHashMap<>(s.toMap());
        m.remove("name");
        m.remove("seed");
        return m;
    }
}
