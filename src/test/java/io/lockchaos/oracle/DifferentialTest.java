package io.lockchaos.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.client.LiveMonitor;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.MutualExclusionChecker;
import io.lockchaos.checker.Recipe;
import io.lockchaos.checker.Verdict;
import io.lockchaos.checker.linear.Expiry;
import io.lockchaos.checker.linear.LinearizabilityChecker;
import io.lockchaos.checker.linear.Model;
import io.lockchaos.checker.linear.Models;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.prop.HistoryShrinker;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import io.lockchaos.sim.SmallHistories;
import io.lockchaos.sim.SmallHistories.Case;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The dedicated checkers, the WGL search and the brute-force oracle judge the same small generated histories; wherever
 * their answers are definite they must agree, and they must agree with what the generator built. 10,000 cases per
 * property in {@code mvn verify} (-Dlockchaos.prop.cases=2000, times five), 200,000 with -Pnightly; a failure prints
 * its seed (replay with -Dlockchaos.seed) and the shrunk history.
 */
class DifferentialTest {
    static final List<Recipe> RECIPES = List.of(Recipe.MUTEX, Recipe.REENTRANT_MUTEX, Recipe.semaphore(1),
            Recipe.semaphore(2), Recipe.READ_WRITE, Recipe.MULTI);
    static final Set<AnomalyKind> EXCLUSION = EnumSet.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.OVER_CAPACITY,
            AnomalyKind.RW_CONFLICT);
    /** What the lock models also forbid: exclusion, plus releases by non-holders and re-grants of non-reentrant locks. */
    static final Set<AnomalyKind> MODEL_KINDS = EnumSet.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.OVER_CAPACITY,
            AnomalyKind.RW_CONFLICT, AnomalyKind.RELEASE_BY_NON_HOLDER, AnomalyKind.NON_REENTRANT_GRANTED);

    static Model<?> modelFor(Recipe r) {
        if (r.isSemaphore()) {
            return Models.semaphore(r.capacity());
        }
        return switch (r.name()) {
            case "mutex" -> Models.mutex();
            case "rw" -> Models.readWrite();
            default -> Models.reentrantMutex();
        };
    }

    static CheckResult wgl(Case c) {
        // this oracle replays lockchaos' own reading of its runs (implied releases); KnossosOracleTest checks none
        return new LinearizabilityChecker(modelFor(c.recipe()), Expiry.EVIDENCE, Duration.ofSeconds(20), 1_000_000)
                .check(c.history());
    }

    static boolean dedicatedExclusion(Case c) {
        return !java.util.Collections.disjoint(
                new MutualExclusionChecker(c.recipe()).check(c.history()).violationKinds(), EXCLUSION);
    }

    /** Shrinks the history of a failing case, keeping its recipe (truth flags are meaningless after shrinking). */
    static Shrinker<Case> shrinker() {
        HistoryShrinker hs = new HistoryShrinker();
        return c -> hs.candidates(c.history()).map(h -> new Case(c.recipe(), h, c.format(), c.unsafe(),
                c.certainDoubleGrant(), c.sessionLoss()));
    }

    static Property<Case> property(String name, long seed) {
        return Property.forAll(name, SmallHistories.cases(RECIPES, 12), shrinker())
                .casesFromSystem(2000, 5.0).seed(seed).maxShrinkSteps(400);
    }

    @Test
    void dedicatedMutualExclusionAgreesWithTheOracleReplay() {
        property("dedicated exclusion == oracle replay", 11L).check(c -> {
            boolean oracle = BruteForceOracle.exclusionViolated(c.history(), c.recipe());
            if (dedicatedExclusion(c) != oracle) {
                throw new AssertionError("oracle says violated=" + oracle + ", dedicated says "
                        + new MutualExclusionChecker(c.recipe()).check(c.history()).anomalies());
            }
            return true;
        });
    }

    @Test
    void theLiveMonitorSeesWhatTheFinalCheckerFinds() {
        // a release by a non-holder, where anyone may release, takes effect live only once it is seen to succeed
        property("live monitor == dedicated exclusion", 15L).check(c -> {
            if (!c.recipe().ownerRelease() && hasStrayRelease(c.history())) {
                return true;
            }
            LiveMonitor live = new LiveMonitor(c.recipe(), d -> { });
            c.history().ops().forEach(live);
            boolean oracle = BruteForceOracle.exclusionViolated(c.history(), c.recipe());
            if ((live.first() != null) != oracle) {
                throw new AssertionError("live monitor saw " + live.first() + ", the oracle says violated=" + oracle);
            }
            return true;
        });
    }

    @Test
    void wglAgreesWithTheBruteForceOracle() {
        AtomicInteger definite = new AtomicInteger();
        AtomicInteger invalid = new AtomicInteger();
        property("WGL == brute force", 12L).check(c -> {
            Boolean oracle = BruteForceOracle.linearizable(c.history(), c.recipe());
            CheckResult r = wgl(c);
            if (oracle == null || r.verdict() == Verdict.UNKNOWN) {
                return true; // undecided by one side: nothing to compare
            }
            definite.incrementAndGet();
            if (!oracle) {
                invalid.incrementAndGet();
            }
            if ((r.verdict() == Verdict.VALID) != oracle) {
                throw new AssertionError("oracle says linearizable=" + oracle + ", WGL says " + r.verdict() + " "
                        + r.anomalies() + "\noracle ops: " + BruteForceOracle.describe(c.history(), c.recipe()));
            }
            return true;
        });
        int cases = Integer.getInteger(Property.CASES_PROPERTY, 2000) * 5;
        System.out.println("WGL vs brute force: " + definite + " of " + cases + " definite, " + invalid
                + " of them not linearizable");
        assertTrue(definite.get() > cases * 0.9, "too few definite answers: " + definite);
        assertTrue(invalid.get() > cases / 20 && invalid.get() < cases * 0.95, "unbalanced: " + invalid + " invalid");
    }

    /**
     * A history with nothing that could make WGL more permissive than the certain-window rule, and no release by a
     * process that held nothing (where anyone may release, the dedicated checkers decide which hold it gave back when
     * it is invoked; the models let it take effect at any point of its window).
     */
    static boolean noSessionLossEvidence(History h) {
        if (hasStrayRelease(h)) {
            return false;
        }
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            if (op.f() == Fn.STATE && ("LOST".equals(op.stringField("state"))
                    || "SUSPENDED".equals(op.stringField("state")))) {
                return false;
            }
            if (op.f() == Fn.EXPIRE) {
                return false;
            }
            if (op.f() == Fn.RELEASE && op.type() == OpType.FAIL && "not-held".equals(op.error())) {
                return false;
            }
            // a granted read-to-write upgrade: the rw model forbids it (Curator never grants it); exclusion does not
            if (op.f() == Fn.ACQUIRE && op.type() == OpType.INVOKE && "write".equals(op.stringField("mode"))
                    && h.outcome(i) == OpType.OK && holdsOnlyRead(h, i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether some release (that did not fail) was invoked by a process holding nothing under its key. */
    static boolean hasStrayRelease(History h) {
        Map<List<Object>, Integer> count = new HashMap<>();
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            if (op.type() == OpType.INVOKE && (op.f() == Fn.ACQUIRE || op.f() == Fn.RELEASE)
                    && h.outcome(i) != OpType.FAIL) {
                List<Object> pk = java.util.Arrays.asList(op.process(), op.key());
                int n = count.getOrDefault(pk, 0);
                if (op.f() == Fn.RELEASE && n == 0) {
                    return true;
                }
                count.put(pk, n + (op.f() == Fn.ACQUIRE ? 1 : -1));
            }
        }
        return false;
    }

    private static boolean holdsOnlyRead(History h, int at) {
        Op a = h.get(at);
        int reads = 0;
        int writes = 0;
        for (int i = 0; i < at; i++) {
            Op op = h.get(i);
            if (op.process() != a.process() || op.type() == OpType.INVOKE || op.type() == OpType.FAIL
                    || !java.util.Objects.equals(op.key(), a.key())) {
                continue;
            }
            Op inv = h.get(h.invocationOf(i));
            int d = inv.f() == Fn.ACQUIRE ? 1 : inv.f() == Fn.RELEASE ? -1 : 0;
            if ("read".equals(inv.stringField("mode"))) {
                reads += d;
            } else {
                writes += d;
            }
        }
        return reads > 0 && writes <= 0;
    }

    @Test
    void withoutSessionLossDedicatedAndWglAgree() {
        AtomicInteger compared = new AtomicInteger();
        property("dedicated == WGL without session loss", 13L).check(c -> {
            if (!noSessionLossEvidence(c.history())) {
                return true;
            }
            CheckResult r = wgl(c);
            if (r.verdict() == Verdict.UNKNOWN) {
                return true;
            }
            compared.incrementAndGet();
            CheckResult d = Checkers.forRecipe(c.recipe()).check(c.history());
            boolean dedicated = !java.util.Collections.disjoint(d.violationKinds(), MODEL_KINDS);
            if (dedicated != (r.verdict() == Verdict.INVALID)) {
                throw new AssertionError("dedicated " + d.violationKinds() + ", WGL " + r.verdict());
            }
            return true;
        });
        int cases = Integer.getInteger(Property.CASES_PROPERTY, 2000) * 5;
        System.out.println("dedicated vs WGL without session loss: " + compared + " of " + cases + " compared");
        assertTrue(compared.get() > cases / 10, "too few comparable cases: " + compared);
    }

    @Test
    void verdictsMatchWhatTheGeneratorBuilt() {
        // not shrunk: the truth flags describe the generated history, not its parts
        Property.forAll("truth by construction", SmallHistories.cases(RECIPES, 12), Shrinker.<Case>none())
                .casesFromSystem(2000, 5.0).seed(14L).check(c -> {
            CheckResult all = Checkers.forRecipe(c.recipe()).check(c.history());
            for (CheckResult part : all.children()) {
                if (part.error() != null && part.error().startsWith("checker failed")) {
                    throw new AssertionError(part.checker() + ": " + part.error());
                }
            }
            boolean exclusion = dedicatedExclusion(c);
            if (!c.unsafe() && !c.sessionLoss() && exclusion) {
                throw new AssertionError("a correct service without session loss gave a mutual exclusion violation");
            }
            if (c.certainDoubleGrant() && !exclusion) {
                throw new AssertionError("an unsafe grant over a certain holder was not found");
            }
            if (!c.unsafe()) {
                CheckResult r = wgl(c);
                if (r.verdict() == Verdict.INVALID || Boolean.FALSE.equals(
                        BruteForceOracle.linearizable(c.history(), c.recipe()))) {
                    throw new AssertionError("a correct service's history is not linearizable: " + r.anomalies());
                }
            }
            return true;
        });
    }
}
