package io.lockchaos.checker.linear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.MutualExclusionChecker;
import io.lockchaos.checker.Recipe;
import io.lockchaos.checker.Verdict;
import io.lockchaos.history.History;
import io.lockchaos.prop.Gen;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import io.lockchaos.sim.Bug;
import io.lockchaos.sim.LockSimulator;
import io.lockchaos.sim.RegisterSimulator;
import io.lockchaos.sim.SimConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LinearizabilityPropertiesTest {
    private static final Map<Recipe, String> MODEL_FOR = Map.of(Recipe.MUTEX, "owner-mutex",
            Recipe.REENTRANT_MUTEX, "reentrant-mutex", Recipe.semaphore(2), "semaphore:2", Recipe.READ_WRITE, "rw");

    record LockCase(SimConfig config, long seed) {
    }

    @Test
    void thePlainMutexModelAgreesWithTheMutualExclusionCheckerToo() {
        // the plain mutex tracks no owner and cannot drop crashed acquires, so the histories are smaller
        Gen<LockCase> gen = r -> new LockCase(SimConfig.defaults(Recipe.MUTEX)
                .withProcesses(r.nextInt(1, 6)).withKeys(r.nextInt(1, 3)).withTargetOps(r.nextInt(20, 120))
                .withInfoRate(r.nextDouble() * 0.05).withTimeoutRate(r.nextDouble() * 0.2)
                .withBug(r.nextBoolean() ? Bug.OVER_GRANT : Bug.NONE), r.nextLong());
        AtomicInteger definite = new AtomicInteger();
        AtomicInteger invalid = new AtomicInteger();
        Property.forAll("the mutex model agrees with mutual exclusion", gen, Shrinker.none())
                .casesFromSystem(2000, 0.25).seed(4711L)
                .check(c -> {
                    History h = LockSimulator.run(c.config(), c.seed()).history();
                    CheckResult lin = new LinearizabilityChecker(Models.mutex(), Duration.ofSeconds(20), 500_000)
                            .check(h);
                    if (lin.verdict() == Verdict.UNKNOWN) {
                        return true;
                    }
                    definite.incrementAndGet();
                    invalid.addAndGet(lin.verdict() == Verdict.INVALID ? 1 : 0);
                    CheckResult me = new MutualExclusionChecker(Recipe.MUTEX).check(h);
                    if (lin.verdict() != me.verdict()) {
                        throw new AssertionError("mutex model " + lin.verdict() + " " + lin.anomalies()
                                + " but mutual exclusion " + me.verdict() + " " + me.anomalies());
                    }
                    return true;
                });
        int cases = Math.max(1, (int) (Integer.getInteger(Property.CASES_PROPERTY, 2000) * 0.25));
        System.out.println("mutex model vs mutual exclusion: " + definite + " of " + cases + " definite, " + invalid
                + " invalid");
        assertTrue(definite.get() >= cases * 0.95, "definite answers: " + definite + " of " + cases);
        assertTrue(invalid.get() > 0 && invalid.get() < definite.get(), "both verdicts occur: " + invalid);
    }

    @Test
    void agreesWithTheMutualExclusionCheckerWheneverItIsDefinite() {
        Recipe[] recipes = MODEL_FOR.keySet().toArray(new Recipe[0]);
        Gen<LockCase> gen = r -> new LockCase(SimConfig.defaults(recipes[r.nextInt(recipes.length)])
                .withProcesses(r.nextInt(1, 7)).withKeys(r.nextInt(1, 3)).withTargetOps(r.nextInt(20, 300))
                .withInfoRate(r.nextDouble() * 0.1).withTimeoutRate(r.nextDouble() * 0.2)
                .withBug(r.nextBoolean() ? Bug.OVER_GRANT : Bug.NONE), r.nextLong());
        AtomicInteger invalid = new AtomicInteger();
        AtomicInteger definite = new AtomicInteger();
        Property.forAll("linearizability agrees with mutual exclusion", gen, Shrinker.none())
                .casesFromSystem(2000, 0.5).seed(31337L)
                .check(c -> {
                    History h = LockSimulator.run(c.config(), c.seed()).history();
                    Model<?> m = Models.parse(MODEL_FOR.get(c.config().recipe()));
                    CheckResult lin = new LinearizabilityChecker(m, Duration.ofSeconds(20), 500_000).check(h);
                    CheckResult me = new MutualExclusionChecker(c.config().recipe()).check(h);
                    if (lin.verdict() == Verdict.UNKNOWN) {
                        return true;
                    }
                    definite.incrementAndGet();
                    if (lin.verdict() == Verdict.INVALID) {
                        invalid.incrementAndGet();
                    }
                    if (lin.verdict() != me.verdict()) {
                        throw new AssertionError("linearizability " + lin.verdict() + " " + lin.anomalies()
                                + " but mutual exclusion " + me.verdict() + " " + me.anomalies());
                    }
                    return true;
                });
        int cases = Math.max(1, (int) (Integer.getInteger(Property.CASES_PROPERTY, 2000) * 0.5));
        assertTrue(definite.get() >= cases * 0.99, "definite answers: " + definite + " of " + cases);
        assertTrue(invalid.get() > cases / 10, "invalid cases: " + invalid);
    }

    record RegisterCase(RegisterSimulator.Config config, long seed) {
    }

    @Test
    void simulatedRegistersAreLinearizableAndAStaleReadIsNot() {
        Gen<RegisterCase> gen = r -> new RegisterCase(new RegisterSimulator.Config(r.nextInt(1, 6), r.nextInt(1, 3),
                r.nextInt(10, 300), r.nextInt(0, 21), r.nextBoolean(), r.nextBoolean()), r.nextLong());
        AtomicInteger stale = new AtomicInteger();
        AtomicInteger unknown = new AtomicInteger();
        Property.forAll("register histories", gen, Shrinker.none()).casesFromSystem(2000, 0.5).seed(777L)
                .check(c -> {
                    RegisterSimulator.Result s = RegisterSimulator.runWithBug(c.config(), c.seed());
                    Model<?> m = c.config().cas() ? Models.casRegister() : Models.register();
                    Verdict v = new LinearizabilityChecker(m, Duration.ofSeconds(20), 500_000).check(s.history())
                            .verdict();
                    Verdict expected = s.bugCommitted() ? Verdict.INVALID : Verdict.VALID;
                    if (s.bugCommitted()) {
                        stale.incrementAndGet();
                    }
                    if (v == Verdict.UNKNOWN) {
                        unknown.incrementAndGet(); // the worst case is exponential in crashed ops; counted below
                    } else if (v != expected) {
                        throw new AssertionError("expected " + expected + ", got " + v);
                    }
                    return true;
                });
        int cases = Math.max(1, (int) (Integer.getInteger(Property.CASES_PROPERTY, 2000) * 0.5));
        assertTrue(stale.get() > 0, "some runs committed a stale read");
        assertTrue(unknown.get() <= cases / 100, "unknown answers: " + unknown + " of " + cases);
    }

    @Test
    void aTimeBoundGivesUnknownNotAHang() {
        History h = LockSimulator.run(SimConfig.defaults(Recipe.MUTEX).withProcesses(20).withTargetOps(60_000)
                .withInfoRate(0.02).withResources(false, false), 5).history();
        // the plain mutex model cannot drop crashed acquires, so this search is long; a zero budget must stop it
        CheckResult r = new LinearizabilityChecker(Models.mutex(), Duration.ZERO, 10_000_000).check(h);
        assertEquals(Verdict.UNKNOWN, r.verdict());
        assertTrue(r.error().contains("time limit reached"), r.error());
    }

    @Test
    void aMemoryBoundGivesUnknownWithWhatWasExplored() {
        History h = LockSimulator.run(SimConfig.defaults(Recipe.MUTEX).withProcesses(20).withTargetOps(20_000)
                .withInfoRate(0.02).withResources(false, false), 5).history();
        CheckResult r = new LinearizabilityChecker(Models.mutex(), Duration.ofSeconds(60), 1_000).check(h);
        assertEquals(Verdict.UNKNOWN, r.verdict());
        assertTrue(r.error().contains("memory bound reached: 1000 configurations"), r.error());
        assertTrue(((Number) r.stats().get("configurations_explored")).longValue() > 1_000);
    }

    @Test
    void independentKeysAreCheckedSeparately() {
        History h = LockSimulator.run(SimConfig.defaults(Recipe.REENTRANT_MUTEX).withProcesses(8).withKeys(50)
                .withTargetOps(5_000), 9).history();
        CheckResult r = new LinearizabilityChecker(Models.reentrantMutex()).check(h);
        assertEquals(Verdict.VALID, r.verdict());
        assertEquals(50, r.stats().get("keys"));
    }
}
