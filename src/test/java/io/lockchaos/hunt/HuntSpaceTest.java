package io.lockchaos.hunt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.fault.FaultKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a hunt draws: valid tests of every recipe of the registry, the same from the same seed, faults each recipe's
 * service takes, and never a bug zoo workload; and how a finding is named from the zoo.
 */
class HuntSpaceTest {
    private static List<TestSpec> zoo() throws Exception {
        List<TestSpec> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("workloads/bugs"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.add(TestSpecs.load(f));
            }
        }
        return out;
    }

    private static List<LockRecipe> everyRecipe() {
        List<LockRecipe> all = new ArrayList<>();
        for (LockRecipe.Kind k : LockRecipe.Kind.values()) {
            if (k != LockRecipe.Kind.USER) {
                all.add(k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(2) : LockRecipe.of(k));
            }
        }
        return all;
    }

    @Test
    void drawsAreValidRepeatableWidespreadAndNeverTheZoo() throws Exception {
        List<TestSpec> zoo = zoo();
        HuntSpace space = new HuntSpace(everyRecipe(), List.of("5.4.0", "linked"), "stop-on-suspended", 7, zoo);
        HuntSpace again = new HuntSpace(everyRecipe(), List.of("5.4.0", "linked"), "stop-on-suspended", 7, zoo);
        Set<String> recipes = new HashSet<>();
        Set<FaultKind> faults = EnumSet.noneOf(FaultKind.class);
        Set<String> cuts = new HashSet<>();
        Set<String> choices = new HashSet<>();
        Set<Map<String, Object>> zooKeys = new HashSet<>();
        for (TestSpec z : zoo) {
            zooKeys.add(withoutNameAndSeed(z));
        }
        for (int i = 0; i < 150; i++) {
            TestSpec s = space.draw(i);
            assertEquals(s, again.draw(i), "run " + i + " is drawn again the same from the seed");
            TestSpecs.validate("drawn", s); // a drawn test is one a run takes
            assertFalse(zooKeys.contains(withoutNameAndSeed(s)), "run " + i + " is a zoo workload: " + s.toMap());
            recipes.add(s.recipe().wireName());
            if (s.recipe().promises().leased()) {
                assertTrue(s.workload().holdMillis() < s.redis().leaseMillis(), "a leased lock's holds stay within its"
                        + " lease: " + s.toMap());
            }
            s.schedule().events().forEach(e -> faults.add(e.fault().kind()));
            if (s.text("after_unknown").equals("keep-client")) {
                choices.add("keep-client");
            }
            if (s.text("lock_settings").contains("retry_times")) {
                assertTrue(s.recipe().curator(), "Curator's settings on a Curator recipe: " + s.toMap());
                choices.add("retry_times");
            }
            s.schedule().events().stream().filter(e -> e.fault().kind() == FaultKind.ISOLATE_CLIENT)
                    .forEach(e -> cuts.add(e.fault().target() + (e.fault().option("one_way", 0) == 1 ? " one_way"
                            : "")));
            if (s.recipe().curator()) {
                assertTrue(Set.of("5.4.0", "linked").contains(String.valueOf(s.toMap().get("curator"))),
                        s.toMap().toString());
                assertEquals("stop-on-suspended", s.toMap().get("client_mode"));
            }
        }
        assertTrue(recipes.size() >= 25, "most recipes drawn in 150 runs: " + recipes);
        assertTrue(faults.containsAll(EnumSet.of(FaultKind.KILL, FaultKind.PAUSE, FaultKind.ISOLATE_CLIENT,
                FaultKind.PAUSE_CLIENT, FaultKind.EXPIRE, FaultKind.PARTITION_HALVES, FaultKind.INTERRUPT)), "faults drawn: " + faults);
        assertTrue(cuts.containsAll(Set.of("holder", "releaser one_way", "holder one_way")), "client cuts: " + cuts);
        assertTrue(choices.containsAll(Set.of("keep-client", "retry_times")), "an application's choices: " + choices);
    }

    private static Map<String, Object> withoutNameAndSeed(TestSpec s) {
        Map<String, Object> m = new LinkedHashMap<>(s.toMap());
        m.remove("name");
        m.remove("seed");
        return m;
    }

    @Test
    void aRefusalNamesTheFaultKindToDrop() {
        assertEquals("expire", HuntSpace.refusedKind("hunt: nemesis: expire holder: a Hazelcast CP session ends by"
                + " itself"));
        assertEquals("partition-halves", HuntSpace.refusedKind("hunt: nemesis: partition-halves: Redis instances"
                + " do not talk"));
        assertNull(HuntSpace.refusedKind("hunt: nodes: hazelcast-fenced runs on 3 or 5 Hazelcast members"));
    }

    @Test
    void aFindingIsTheZoosBugOnTheVersionsWhereTheZooExpectsItAndRelatedElsewhere() throws Exception {
        KnownBugs bugs = KnownBugs.load(Path.of("workloads/bugs"));
        assertNull(bugs.missing());
        Signature downgrade = new Signature("rw", Set.of(AnomalyKind.RW_CONFLICT), Set.of(FaultKind.KILL), List.of());
        TestSpec on540 = TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "rw", "curator", "5.4.0"));
        TestSpec on590 = TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "rw", "curator", "5.9.0"));
        assertEquals("CURATOR-621", bugs.match(downgrade, on540).orElseThrow().id());
        assertTrue(bugs.match(downgrade, on590).isEmpty(), "fixed in 5.5.0: a new finding on 5.9.0");
        assertEquals(List.of("CURATOR-621"), bugs.related(downgrade).stream().map(KnownBugs.Bug::id).toList());
        Signature adopted = new Signature("mutex", Set.of(AnomalyKind.FOREIGN_OWNER_GRANT), Set.of(FaultKind.KILL),
                List.of());
        assertEquals(List.of("CURATOR-696", "CURATOR-604"), bugs.related(adopted).stream().map(KnownBugs.Bug::id)
                .toList(), "the same anomaly with another recipe");
        Signature latch = new Signature("leader-latch", Set.of(AnomalyKind.FOREIGN_OWNER_GRANT,
                AnomalyKind.DOUBLE_HOLDER), Set.of(FaultKind.KILL), List.of());
        TestSpec latch540 = TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "leader-latch", "curator",
                "5.4.0"));
        assertEquals("CURATOR-696", bugs.match(latch, latch540).orElseThrow().id());
        Signature noKill = new Signature("leader-latch", latch.anomalies(), Set.of(FaultKind.PAUSE), List.of());
        assertTrue(bugs.match(noKill, latch540).isEmpty(), "the zoo's bug needs its kill");
        assertTrue(KnownBugs.load(Path.of("no-such-zoo")).missing().contains("is not here"));
        // Redisson 2714's interrupted acquire that took the lock, released by a finally instead of leaked
        Signature released = new Signature("redisson", Set.of(AnomalyKind.RELEASE_BY_NON_HOLDER),
                Set.of(FaultKind.INTERRUPT, FaultKind.KILL), List.of());
        TestSpec redisson = TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "redisson", "nodes", "1"));
        assertEquals("redisson-2714", bugs.match(released, redisson).orElseThrow().id());
        assertEquals(List.of(), bugs.related(new Signature("mutex", Set.of(AnomalyKind.DOUBLE_HOLDER),
                Set.of(FaultKind.PAUSE_CLIENT), List.of())), "two holders alone relate nothing across recipes");
        assertTrue(bugs.match(new Signature("redisson", Set.of(AnomalyKind.RELEASE_BY_NON_HOLDER),
                Set.of(FaultKind.KILL), List.of()), redisson).isEmpty(), "not without its interrupt");
    }

    @Test
    void everyZooBugThatCanFailHasASignature() throws Exception {
        Set<String> named = new HashSet<>();
        KnownBugs.table().forEach(n -> named.add(n.path("workload").asText()));
        try (Stream<Path> files = Files.list(Path.of("workloads/bugs"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                TestSpec s = TestSpecs.load(f);
                boolean canFail = s.checking().expect() == io.lockchaos.checker.Verdict.INVALID
                        || s.checking().byCurator().stream().anyMatch(v -> v.verdict()
                        == io.lockchaos.checker.Verdict.INVALID)
                        || s.checking().byZooKeeper().stream().anyMatch(v -> v.verdict()
                        == io.lockchaos.checker.Verdict.INVALID);
                assertTrue(!canFail || named.contains(f.getFileName().toString()), f + " has no entry in"
                        + " known-bugs.json: a hunt could not name it");
            }
        }
    }

    @Test
    void aStorysEventsBecomeKinds() {
        assertEquals("cut", Signature.kind("nemesis: isolate-client of process 1"));
        assertEquals("heal", Signature.kind("nemesis: restart kill of server 1"));
        assertEquals("kill", Signature.kind("nemesis: kill kill of server 1"));
        assertEquals("SUSPENDED", Signature.kind("process 1 is told SUSPENDED"));
        assertEquals("grant", Signature.kind("process 293 is granted /lockchaos/lock-0"));
        assertNull(Signature.kind("both held it for 1.362 s"));
    }

    @Test
    void aRunJoinsTheFindingWhoseCauseItHoldsOrItsKnownBug() throws Exception {
        TestSpec killed = TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "mutex", "nemesis",
                "at 1s kill random for 1s"));
        Signature kill = new Signature("mutex", Set.of(AnomalyKind.DOUBLE_HOLDER), Set.of(FaultKind.KILL), List.of());
        Finding first = new Finding(1, kill, killed, Path.of("r1"), List.of());
        List<Finding> all = List.of(first);
        Signature more = new Signature("mutex", Set.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE),
                Set.of(FaultKind.KILL, FaultKind.PAUSE), List.of());
        assertEquals(first, Hunt.same(all, more, null), "its faults include the smallest test's");
        Signature paused = new Signature("mutex", Set.of(AnomalyKind.DOUBLE_HOLDER), Set.of(FaultKind.PAUSE),
                List.of());
        assertNull(Hunt.same(all, paused, null), "without a kill it is another cause");
        assertNull(Hunt.same(all, new Signature("rw", kill.anomalies(), kill.faults(), List.of()), null));
        KnownBugs bugs = KnownBugs.load(Path.of("workloads/bugs"));
        KnownBugs.Bug b621 = bugs.bugs().stream().filter(b -> b.id().equals("CURATOR-621")).findFirst().orElseThrow();
        Finding known = new Finding(2, new Signature("rw", Set.of(AnomalyKind.RW_CONFLICT), Set.of(FaultKind.KILL),
                List.of()), killed, Path.of("r2"), List.of());
        known.known = b621;
        assertEquals(known, Hunt.same(List.of(first, known), new Signature("rw", Set.of(AnomalyKind.RW_CONFLICT),
                Set.of(FaultKind.EXPIRE), List.of()), b621), "one known bug is one finding, whatever its faults");
    }
}
