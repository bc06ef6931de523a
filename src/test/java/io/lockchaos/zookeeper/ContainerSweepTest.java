package io.lockchaos.zookeeper;

import io.lockchaos.cluster.Docker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A runner killed with SIGKILL runs no shutdown hook, and there is no reaper container: its containers and network
 * stay until the next start, whose sweep removes them (and only them).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class ContainerSweepTest {
    @Test
    void theContainersOfAKilledRunnerAreRemovedAtTheNextStart() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Docker.available(),
                "Docker is not available on this machine: container tests skipped");
        Docker.prepare();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=off", "-cp", System.getProperty("java.class.path"),
                ContainerHolder.class.getName());
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process runner = pb.start();
        String id;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(runner.getInputStream(),
                StandardCharsets.UTF_8))) {
            id = out.readLine();
        } finally {
            runner.destroyForcibly(); // SIGKILL: no shutdown hook runs
            runner.waitFor(10, TimeUnit.SECONDS);
        }
        assertTrue(id != null && id.matches("[0-9a-f]{64}"), "the holder started a container: " + id);
        var docker = DockerClientFactory.instance().client();
        List<String> left = docker.listContainersCmd().withShowAll(true).withLabelFilter(List.of(Docker.RUNNER_LABEL))
                .exec().stream().map(c -> c.getId()).toList();
        assertTrue(left.contains(id), "a killed runner leaves its container: " + left);
        assertTrue(Docker.sweep() >= 2, "the sweep removes its container and its network");
        List<String> after = docker.listContainersCmd().withShowAll(true).exec().stream().map(c -> c.getId())
                .toList();
        assertFalse(after.contains(id), "and it is gone: " + after);
        assertTrue(docker.listNetworksCmd().exec().stream().noneMatch(n -> n.getLabels() != null
                && String.valueOf(runner.pid()).equals(n.getLabels().get(Docker.RUNNER_LABEL))), "its network too");
    }
}
