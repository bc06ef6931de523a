package io.lockchaos.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.cluster.Netns;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.nemesis.IptablesPartitioner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A primary, two replicas and three Sentinels as child processes: their roles, a replicated key, the final
 * inspection reading the primary alone, and a failover when the primary is killed or, in network namespaces, cut off.
 */
@Timeout(value = 200, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class SentinelServersTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void redisServerIsThere() {
        org.junit.jupiter.api.Assumptions.assumeTrue(RedisServers.findExecutable() != null, RedisServers.MISSING);
    }

    @Test
    void theSentinelsPromoteAReplicaWhenThePrimaryIsKilled() throws Exception {
        try (RedisServers s = RedisServers.builder(dir).size(3).sentinels(3).build()) {
            s.start();
            s.awaitHealthy(Duration.ofSeconds(20));
            List<ServerNode> nodes = s.nodes();
            assertEquals(6, nodes.size(), "three instances, then three Sentinels");
            assertEquals(List.of("leader", "follower", "follower", "sentinel", "sentinel", "sentinel"),
                    nodes.stream().map(n -> awaitRole(s, n, n.id() == 1 ? "leader" : n.id() <= 3 ? "follower"
                            : "sentinel")).toList());
            assertTrue(Files.readString(nodes.get(3).dataDir().resolve("sentinel.conf"))
                    .contains("sentinel monitor " + RedisServers.PRIMARY_NAME + " 127.0.0.1 "
                            + nodes.get(0).clientPort() + " 2"));
            try (Jedis primary = new Jedis(nodes.get(0).host(), nodes.get(0).clientPort(), 2000, 2000)) {
                primary.set("/k", "v");
                assertEquals(2L, primary.waitReplicas(2, 2000), "both replicas have the key");
            }
            // the inspection reads the primary only: a replica's copy and a Sentinel are no lock of their own
            String all = String.join(",", nodes.stream().map(n -> n.host() + ":" + n.clientPort()).toList());
            assertEquals(1, RedisInspection.inspect(List.of(all.split(",")), List.of("/k")).left().size());
            s.kill(nodes.get(0));
            // a Sentinel whose timer ran late by 2 s (a loaded machine) enters TILT mode and acts on nothing for 30 s:
            // one CI run promoted nobody within 30 s of the cut
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(75);
            ServerNode promoted = null;
            while (promoted == null && System.nanoTime() < deadline) {
                for (ServerNode n : nodes.subList(1, 3)) {
                    if (s.role(n, 500).equals("leader")) {
                        promoted = n;
                    }
                }
                Thread.sleep(100);
            }
            assertTrue(promoted != null, "a replica was promoted within 30 s");
            try (Jedis j = new Jedis(promoted.host(), promoted.clientPort(), 2000, 2000)) {
                assertEquals("v", j.get("/k"), "the promoted replica has what was replicated");
            }
        }
    }

    /**
     * Each server in a network namespace of its own (cluster netns): the primary cut from the replicas and the
     * Sentinels by iptables is replaced by a replica; healed, it is told to follow the new one; closing the servers
     * removes their namespaces.
     */
    @Test
    void aPrimaryCutFromItsReplicasAndSentinelsInNamespacesIsReplaced() throws Exception {
        String why = Netns.unavailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
        Netns ns = Netns.create(6);
        String first = ns.namespace(1);
        try (RedisServers s = RedisServers.builder(dir).size(3).sentinels(3).netns(ns).build()) {
            s.start();
            s.awaitHealthy(Duration.ofSeconds(20));
            List<ServerNode> nodes = s.nodes();
            assertEquals(ns.address(1), nodes.get(0).host());
            assertEquals("leader", awaitRole(s, nodes.get(0), "leader"));
            assertEquals("follower", awaitRole(s, nodes.get(1), "follower"));
            IptablesPartitioner cuts = new IptablesPartitioner(ns);
            for (ServerNode other : nodes.subList(1, 6)) {
                cuts.cutOneWay(nodes.get(0), other, "t");
                cuts.cutOneWay(other, nodes.get(0), "t");
            }
            // a Sentinel whose timer ran late by 2 s (a loaded machine) enters TILT mode and acts on nothing for 30 s:
            // one CI run promoted nobody within 30 s of the cut
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(75);
            ServerNode promoted = null;
            while (promoted == null && System.nanoTime() < deadline) {
                for (ServerNode n : nodes.subList(1, 3)) {
                    if (s.role(n, 500).equals("leader")) {
                        promoted = n;
                    }
                }
                Thread.sleep(100);
            }
            assertTrue(promoted != null, "a replica was promoted within 75 s of the cut");
            assertEquals("leader", s.role(nodes.get(0), 500), "the cut primary, reached from here, still says so");
            cuts.remove("t");
            // the Sentinels' links to it were dropped, not closed: they notice and reconnect within seconds
            assertEquals("follower", awaitRole(s, nodes.get(0), "follower", 40), "healed, it follows the new primary");
        }
        assertTrue(!Netns.run(List.of("ip", "netns", "list")).contains(first), "its namespaces are gone");
    }

    /** The node's role once it says {@code expected} (a replica reports its link a moment after it starts). */
    private static String awaitRole(RedisServers s, ServerNode n, String expected) {
        return awaitRole(s, n, expected, 10);
    }

    private static String awaitRole(RedisServers s, ServerNode n, String expected, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String role = s.role(n, 500);
        while (!role.equals(expected) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return role;
            }
            role = s.role(n, 500);
        }
        return role;
    }
}
