package io.lockchaos.cluster;

import io.lockchaos.zookeeper.FourLetterWords;
import io.lockchaos.zookeeper.LocalEnsemble;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Servers in network namespaces: they run on their own addresses, and nothing the run made (namespaces, links, the
 * bridge) outlives it, whether it closes or is killed with SIGKILL (then the next start's sweep removes it).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class NetnsTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsNamespaces() {
        String why = Netns.unavailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
    }

    private static String namespaces() throws Exception {
        return Netns.run(List.of("ip", "netns", "list"));
    }

    private static String links() throws Exception {
        return Netns.run(List.of("ip", "-o", "link", "show"));
    }

    /** A {@link NetnsHolder} in a JVM of its own, a runner that makes a namespace and waits to be killed. */
    private static Process holder(String... args) throws java.io.IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), NetnsHolder.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    @Test
    void serversRunOnTheirOwnAddressesAndCloseRemovesEverything() throws Exception {
        Netns ns = Netns.create(3);
        String first = ns.namespace(1);
        String bridge = "lcb-" + first.substring("lockchaos-".length(), first.length() - "-n1".length());
        try (LocalEnsemble zk = LocalEnsemble.builder(dir).size(3).netns(ns).build()) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            for (ServerNode n : zk.nodes()) {
                assertEquals(ns.address(n.id()), n.host());
                assertTrue(ns.exec(n.id(), List.of("ip", "-o", "-4", "addr", "show", "dev", "eth0"))
                        .contains(ns.address(n.id()) + "/24"), "server " + n.id() + " has its address");
                // and its port is not open on the runner's loopback: the server really is elsewhere
                assertTrue(FourLetterWords.mode(new ServerNode(n.id(), "127.0.0.1", n.clientPort(), 0, 0, null, null),
                        300).isEmpty());
            }
            assertTrue(namespaces().contains(first));
            assertTrue(links().contains(bridge));
        }
        assertFalse(namespaces().contains(first), "namespaces removed: " + namespaces());
        assertFalse(links().contains(bridge), "bridge removed");
    }

    @Test
    void theNamespacesOfAKilledRunnerAreSweptAtTheNextStart() throws Exception {
        Process runner = holder();
        String made;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(runner.getInputStream(),
                StandardCharsets.UTF_8))) {
            made = out.readLine();
            assertTrue(made != null && made.startsWith("lockchaos-"), "the holder made " + made);
            runner.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertTrue(runner.waitFor(10, TimeUnit.SECONDS));
        }
        assertTrue(namespaces().contains(made), "a killed runner leaves its namespace: " + namespaces());
        assertTrue(Netns.sweep() >= 1, "the sweep removes something");
        assertFalse(namespaces().contains(made), "and it is gone: " + namespaces());
        String run = made.substring("lockchaos-".length(), made.length() - "-n1".length());
        assertFalse(links().contains("lcb-" + run), "its bridge too");
        assertFalse(links().contains("lcv-" + run), "its links too");
    }

    @Test
    void runnersStartingTogetherTakeDifferentSubnets() throws Exception {
        List<Process> runners = new java.util.ArrayList<>();
        // all three create their namespaces in the same millisecond, once their JVMs are up
        String at = Long.toString(System.currentTimeMillis() + 5000);
        boolean together = true;
        try {
            for (int i = 0; i < 3; i++) {
                runners.add(holder(at));
            }
            java.util.Set<String> subnets = new java.util.HashSet<>();
            for (Process p : runners) {
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8));
                String made = out.readLine();
                String address = out.readLine();
                assertTrue(made != null && made.startsWith("lockchaos-") && address != null, made + " " + address);
                subnets.add(address.substring(0, address.lastIndexOf('.')));
                together &= "on time".equals(out.readLine());
            }
            assertEquals(3, subnets.size(), "each runner has a /24 of its own: " + subnets);
            // a runner whose JVM took more than 5 s to start did not race the others: then the check proved less
            org.junit.jupiter.api.Assumptions.assumeTrue(together, "a runner started late; the race was not run");
        } finally {
            for (Process p : runners) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            Netns.sweep();
        }
    }

    @Test
    void theSweepLeavesTheNamespacesOfLiveRunnersAlone() throws Exception {
        try (Netns mine = Netns.create(1)) {
            Netns.sweep();
            assertTrue(namespaces().contains(mine.namespace(1)), "this JVM is alive: its namespace stays");
        }
        assertTrue(Netns.deadRunner(Long.toString(Long.MAX_VALUE / 4, 36) + "-0"), "a pid nobody has is dead");
        assertFalse(Netns.deadRunner(Long.toString(ProcessHandle.current().pid(), 36) + "-0"), "this one lives");
        assertFalse(Netns.deadRunner("docker0"), "a name that is not ours is never swept");
    }
}
