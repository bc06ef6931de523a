package io.lockchaos.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.Verdict;
import io.lockchaos.core.Runner;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The servers run another ZooKeeper release when a workload names one: each of 3.5 to 3.8 (3.9 is the linked one)
 * forms an ensemble that survives the leader's kill, and its servers say which version they are.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class ZooKeeperVersionsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"3.5.10", "3.6.4", "3.7.2", "3.8.4"})
    void anEnsembleOfThatReleaseSurvivesTheLeadersKill(String version) throws Exception {
        TestSpec spec = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("zookeeper", version,
                "time_s", "6", "clients", "5", "nemesis", "at 2s kill leader for 2s")));
        Path runDir = dir.resolve(version);
        Files.createDirectories(runDir);
        Runner.writeTestJson(runDir, spec);
        Runner.Outcome o = new Runner(spec, runDir).run();
        assertEquals(Verdict.VALID, o.result().verdict(), o.result().violationKinds() + " in " + runDir);
        assertEquals(0, o.faultsFailed(), "the leader was found and killed");
        try (Stream<Path> logs = Files.walk(runDir.resolve("servers"))) {
            long onVersion = logs.filter(p -> p.getFileName().toString().equals("server.log")).filter(p -> {
                try {
                    return Files.readString(p).contains("zookeeper.version=" + version + "-");
                } catch (java.io.IOException e) {
                    return false;
                }
            }).count();
            assertEquals(3, onVersion, "every server says it is " + version);
        }
        assertTrue(Files.readString(runDir.resolve("test.json")).contains("\"zookeeper\" : \"" + version + "\""));
    }

    @Test
    void aReleaseIsRefusedWherePeerProxiesOrContainersWouldBeNeeded() {
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> TestSpecs.validate(
                "w.json", TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("zookeeper", "3.6.4", "nemesis",
                        "at 1s partition halves for 1s"))));
        assertEquals("w.json: zookeeper: 3.6.4 runs ZooKeeper's own QuorumPeerMain, whose election connections"
                + " bypass peer proxies: cut servers apart with cluster netns (iptables)", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> TestSpecs.validate("w.json",
                TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("zookeeper", "3.6.4", "cluster", "container"))));
        assertTrue(e.getMessage().startsWith("w.json: zookeeper: containers run the linked ZooKeeper"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> TestSpecs.validate("w.json",
                TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("zookeeper", "3.6.4", "recipe", "redis-single",
                        "nodes", "1"))));
        assertTrue(e.getMessage().startsWith("w.json: zookeeper: a ZooKeeper release is for ZooKeeper recipes"),
                e.getMessage());
    }
}
