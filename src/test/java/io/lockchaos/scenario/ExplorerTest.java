package io.lockchaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.core.TestSpec;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExplorerTest {
    @Test
    void everyRunIsAValidTestDerivedFromOneSeed() throws Exception {
        Explorer a = new Explorer(TestSpec.DEFAULTS, 42, Path.of("unused"), null);
        Explorer b = new Explorer(TestSpec.DEFAULTS, 42, Path.of("unused"), null);
        Set<String> schedules = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            TestSpec s = a.runSpec(i);
            assertEquals(s, b.runSpec(i), "the same seed gives the same run " + i);
            assertEquals(a.seedOf(i), s.seed());
            assertTrue(!s.schedule().isEmpty(), "every run has faults");
            assertTrue(s.schedule().events().stream().allMatch(e -> e.atMillis() < s.workload().timeSeconds() * 1000));
            assertEquals(TestSpec.DEFAULTS.recipe(), s.recipe());
            assertEquals(TestSpec.DEFAULTS.clients().mode(), s.clients().mode());
            schedules.add(s.faults().nemesis());
        }
        assertTrue(schedules.size() > 40, "runs differ: " + schedules.size() + " distinct schedules of 50");
        assertNotEquals(a.runSpec(0), new Explorer(TestSpec.DEFAULTS, 43, Path.of("unused"), null).runSpec(0));
    }

    /**
     * Redis and PostgreSQL locks (built in or a user's) are explored with the faults they have: no expiry, no leader,
     * nothing between servers; every run still validates, and the time scale is the lease where there is one.
     */
    @Test
    void aLockWithoutSessionsIsExploredWithTheFaultsItHas() throws Exception {
        for (String recipe : new String[] {"pg-advisory", "pg-lease", "redis-single", "redlock"}) {
            TestSpec base = io.lockchaos.core.TestSpecs.validate("t", io.lockchaos.core.TestSpecs.with("t",
                    TestSpec.DEFAULTS, java.util.Map.of("recipe", recipe, "nodes", recipe.equals("redlock") ? "5" : "1",
                            "lease_ms", "1500")));
            Explorer e = new Explorer(base, 7, Path.of("unused"), null);
            Set<String> kinds = new HashSet<>();
            for (int i = 0; i < 50; i++) {
                TestSpec s = e.runSpec(i);
                assertEquals(base.recipe(), s.recipe());
                s.schedule().events().forEach(x -> kinds.add(x.fault().kind().wireName()));
                assertTrue(s.schedule().events().stream().noneMatch(x -> x.fault().target().contains("leader")
                        || x.fault().target().contains("follower")), recipe + ": " + s.faults().nemesis());
                if (base.recipe().promises().leased()) {
                    assertTrue(s.workload().holdMillis() <= 3 * 1500, recipe + " holds against its lease: "
                            + s.workload().holdMillis());
                }
            }
            assertEquals(Set.of("isolate-client", "pause-client", "kill", "pause"), kinds, recipe);
        }
    }
}
