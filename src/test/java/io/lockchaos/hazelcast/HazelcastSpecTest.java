package io.lockchaos.hazelcast;

import static io.lockchaos.core.SpecRefusals.accepted;
import static io.lockchaos.core.SpecRefusals.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import io.lockchaos.api.Backend;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.hazelcastlock.HazelcastFencedLock;
import io.lockchaos.core.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the Hazelcast recipes take (3 or 5 members, here or in namespaces; kills, pauses and client cuts; cuts between
 * members only in namespaces), what they refuse in one line, the members' configuration (loopback only, no phone
 * home, the CP Subsystem on every member or none), and that the recipe's promises are its factory's.
 */
class HazelcastSpecTest {
    @Test
    void membersTakeKillsPausesAndClientCutsAndCutsBetweenThemInNamespaces() throws Exception {
        accepted(Map.of("recipe", "hazelcast-fenced", "nodes", "3", "nemesis",
                "at 1s kill random for 2s; at 4s pause node:2 for 1s; at 6s isolate holder for 1s"));
        accepted(Map.of("recipe", "hazelcast-fenced-unsafe", "nodes", "5", "cluster", "netns", "nemesis",
                "at 1s partition halves for 2s"));
        accepted(Map.of("recipe", "hazelcast-fenced", "nodes", "3", "nemesis", "at 1s pause-client holder for 4s"));
        String cut = refusal(Map.of("recipe", "hazelcast-fenced", "nodes", "3", "nemesis",
                "at 1s partition halves for 2s"));
        assertTrue(cut.contains("Hazelcast members talk to each other directly here"), cut);
        assertEquals(1, cut.lines().count(), cut);
        assertTrue(refusal(Map.of("recipe", "hazelcast-fenced", "nodes", "1")).contains(
                "nodes: hazelcast-fenced runs on 3 or 5 Hazelcast members"));
        assertTrue(refusal(Map.of("recipe", "hazelcast-fenced", "nodes", "3", "nemesis", "at 1s expire holder"))
                .contains("a Hazelcast CP session ends by itself"));
        assertTrue(refusal(Map.of("recipe", "hazelcast-fenced", "nodes", "3", "nemesis",
                "at 1s kill leader for 2s")).contains("Hazelcast members do not say which leads"));
        String container = refusal(Map.of("recipe", "hazelcast-fenced", "nodes", "3", "cluster", "container"));
        assertTrue(container.contains("cluster: ") && container.contains("not containers"), container);
        assertEquals("Hazelcast member(s)", LockRecipe.parse("hazelcast-fenced").servers());
    }

    @Test
    void aSessionOutlivesItsClientByTheSessionTimeoutInWholeSeconds() {
        assertEquals(4, HazelcastService.sessionTtlSeconds(4000));
        assertEquals(3, HazelcastService.sessionTtlSeconds(2500));
        assertEquals(2, HazelcastService.sessionTtlSeconds(500), "above the 1 s heartbeat");
    }

    @Test
    void aMemberListensOnItsAddressOnlyJoinsTheListedMembersAndNeverPhonesHome() {
        Config c = HazelcastMember.config("127.0.0.1", 5801, List.of("127.0.0.1:5801", "127.0.0.1:5802",
                "127.0.0.1:5803"), 3, 4);
        assertEquals("false", c.getProperty("hazelcast.phone.home.enabled"));
        assertEquals("false", c.getProperty("hazelcast.socket.bind.any"));
        assertEquals(List.of("127.0.0.1"), List.copyOf(c.getNetworkConfig().getInterfaces().getInterfaces()));
        assertFalse(c.getNetworkConfig().getJoin().getMulticastConfig().isEnabled());
        assertFalse(c.getNetworkConfig().getJoin().getAutoDetectionConfig().isEnabled());
        assertEquals(3, c.getCPSubsystemConfig().getCPMemberCount());
        assertEquals(4, c.getCPSubsystemConfig().getSessionTimeToLiveSeconds());
        Config unsafe = HazelcastMember.config("127.0.0.1", 5801, List.of("127.0.0.1:5801"), 0, 4);
        assertEquals(0, unsafe.getCPSubsystemConfig().getCPMemberCount(), "no CP members: the unsafe mode");
        assertEquals(4, unsafe.getCPSubsystemConfig().getSessionTimeToLiveSeconds());
    }

    @Test
    void theRecipesPromisesAreItsFactorys() {
        HazelcastFencedLock factory = new HazelcastFencedLock();
        for (String r : List.of("hazelcast-fenced", "hazelcast-fenced-unsafe")) {
            LockRecipe recipe = LockRecipe.parse(r);
            assertEquals(factory.promises(), recipe.promises().promises(), r);
            assertEquals(Backend.HAZELCAST, recipe.backend(), r);
            assertEquals(HazelcastFencedLock.class.getName(), recipe.kind().library().factory(), r);
        }
    }

    @Test
    void theHazelcastWorkloadsValidate() throws Exception {
        int n = 0;
        try (var files = Files.list(Path.of("workloads"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("hazelcast-")).toList()) {
                assertEquals(Backend.HAZELCAST, TestSpecs.load(f).recipe().backend(), f.toString());
                n++;
            }
        }
        assertTrue(n >= 6, "the Hazelcast workloads: " + n);
    }
}
