package io.lockchaos.redis;

import static io.lockchaos.core.SpecRefusals.accepted;
import static io.lockchaos.core.SpecRefusals.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.client.LockRecipe;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a Sentinel recipe takes: three instances, faults on the primary, a replica or a Sentinel, cuts of its clients;
 * cuts between its servers in network namespaces only, refused in one line elsewhere. The workload files validate.
 */
class SentinelSpecTest {
    @Test
    void aPrimaryAndTwoReplicasTakeTheirFaults() throws Exception {
        accepted(Map.of("recipe", "redisson-sentinel", "nodes", "3", "nemesis", "at 1s kill leader for 2s"));
        accepted(Map.of("recipe", "redisson-fenced-sentinel", "nodes", "3", "nemesis",
                "at 1s pause follower for 2s; at 4s kill node:4 for 1s; at 6s isolate holder for 1s"));
        assertTrue(refusal(Map.of("recipe", "redisson-sentinel", "nodes", "1")).contains(
                "nodes: redisson-sentinel locks on a primary and two replicas: nodes 3, got 1"));
        String cut = refusal(Map.of("recipe", "redisson-sentinel", "nodes", "3", "nemesis",
                "at 1s isolate leader for 2s"));
        assertTrue(cut.contains("cuts between a Sentinel deployment's servers need network namespaces"), cut);
        assertEquals(1, cut.lines().count(), cut);
        accepted(Map.of("recipe", "redisson-sentinel", "nodes", "3", "cluster", "netns", "nemesis",
                "at 1s isolate leader for 2s; at 4s partition halves for 2s"));
        String netns = refusal(Map.of("recipe", "redisson", "nodes", "1", "cluster", "netns"));
        assertTrue(netns.contains("netns is for a Sentinel recipe's servers"), netns);
        assertEquals("Redis instance(s) and 3 Sentinels", LockRecipe.parse("redisson-sentinel")
                .servers(), "what the run's lines call its servers");
        assertEquals("Redis instance(s)", LockRecipe.parse("redisson").servers());
        assertTrue(refusal(Map.of("recipe", "redisson", "nodes", "1", "nemesis", "at 1s kill leader for 2s"))
                .contains("Redis instances have no leader or followers"));
    }

    @Test
    void theSentinelWorkloadsValidate() throws Exception {
        try (var files = Files.list(Path.of("workloads"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("redisson-sentinel-")
                    || p.getFileName().toString().startsWith("redisson-fenced-sentinel-")).toList()) {
                TestSpec s = TestSpecs.load(f);
                assertTrue(s.recipe().sentinel(), f.toString());
            }
        }
    }
}
