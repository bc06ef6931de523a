package io.lockchaos.nemesis;

import io.lockchaos.client.ClientRegistry;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.zookeeper.FourLetterWords;
import io.lockchaos.zookeeper.LocalEnsemble;
import io.lockchaos.zookeeper.ZooKeepers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each fault verified on a real local ensemble by its effect. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class FaultEffectsTest {
    private static final int SESSION_MS = 2000;

    @TempDir
    Path dir;

    private static long waitUntil(BooleanSupplier condition, long timeoutMillis) throws InterruptedException {
        long t0 = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - t0 > timeoutMillis * 1_000_000L) {
                return -1;
            }
            Thread.sleep(10);
        }
        return (System.nanoTime() - t0) / 1_000_000L;
    }

    /**
     * Whether the node exists. A connection loss is retried (the handle reconnects by itself) for up to 10 s; an
     * observer that still cannot tell fails the test rather than passing it either way.
     */
    private static boolean exists(ZooKeeper zk, String path) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try {
                return zk.exists(path, false) != null;
            } catch (org.apache.zookeeper.KeeperException.ConnectionLossException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the observer could not read " + path, e);
                }
            } catch (Exception e) {
                throw new AssertionError("the observer could not read " + path, e);
            }
        }
    }

    private static Optional<ServerNode> leaderAmong(List<ServerNode> nodes) {
        return nodes.stream().filter(n -> FourLetterWords.mode(n, 300).filter("leader"::equals).isPresent())
                .findFirst();
    }

    private static String modes(io.lockchaos.cluster.Cluster zk) {
        StringBuilder s = new StringBuilder();
        for (ServerNode n : zk.nodes()) {
            s.append(n.id()).append('=').append(FourLetterWords.mode(n, 1000).orElse("not serving")).append(' ');
        }
        return s.toString().trim();
    }

    private static NemesisContext context(LocalEnsemble zk, ClientRegistry clients, ProxyNetwork net) {
        return new NemesisContext(zk, clients, net, SESSION_MS, new SplittableRandom(1));
    }

    @Test
    void killingTheLeaderElectsANewOneAndPausedServersResume() throws Exception {
        try (LocalEnsemble zk = LocalEnsemble.builder(dir).size(3).build()) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            NemesisContext ctx = context(zk, new ClientRegistry(0), null);
            ServerNemesis servers = new ServerNemesis();
            ServerNode old = zk.leader().orElseThrow();
            Nemesis.Started kill = servers.start(new Fault(FaultKind.KILL, "leader", Map.of()), 1000, ctx);
            assertEquals(List.of(old.id()), kill.value().get("nodes"));
            List<ServerNode> rest = zk.nodes().stream().filter(n -> n.id() != old.id()).toList();
            assertTrue(waitUntil(() -> leaderAmong(rest).isPresent(), 30_000) >= 0, "a new leader among " + rest);
            kill.stopper().stop();
            zk.awaitHealthy(Duration.ofSeconds(30));

            Nemesis.Started pause = servers.start(new Fault(FaultKind.PAUSE, "follower", Map.of()), 1000, ctx);
            @SuppressWarnings("unchecked")
            int id = ((List<Integer>) pause.value().get("nodes")).get(0);
            ServerNode paused = zk.nodes().get(id - 1);
            // kill(1) returns once the signal is sent; on a busy machine the group stop may take a moment
            assertTrue(waitUntil(() -> FourLetterWords.mode(paused, 300).isEmpty(), 3000) >= 0,
                    "a stopped server does not answer");
            pause.stopper().stop();
            assertTrue(waitUntil(() -> FourLetterWords.mode(paused, 300).isPresent(), 20_000) >= 0,
                    "it answers again after SIGCONT");
            servers.heal(ctx);
        }
    }

    @Test
    void serverSideExpiryDeletesEphemeralsAtOnceAndClientSideLeavesThemUntilTheTimeout() throws Exception {
        try (LocalEnsemble zk = LocalEnsemble.builder(dir).size(1).build()) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            ZooKeeper observer = ZooKeepers.connect(zk.connectString(), 10_000, Duration.ofSeconds(10));
            ClientRegistry clients = new ClientRegistry(2);
            NemesisContext ctx = context(zk, clients, null);
            SessionNemesis sessions = new SessionNemesis();
            try {
                ZooKeeper victim = ZooKeepers.connect(zk.connectString(), SESSION_MS, Duration.ofSeconds(10));
                clients.worker(0).zookeeper(() -> victim);
                victim.create("/server-side", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
                Nemesis.Started s = sessions.start(new Fault(FaultKind.EXPIRE, "process:0", Map.of()), 0, ctx);
                assertEquals(victim.getSessionId(), s.value().get("session"));
                long gone = waitUntil(() -> !exists(observer, "/server-side"), 5000);
                assertTrue(gone >= 0 && gone < 1000, "the node went " + gone + " ms after the expiry");
                victim.close();

                ZooKeeper fooled = ZooKeepers.connect(zk.connectString(), SESSION_MS, Duration.ofSeconds(10));
                long oldSession = fooled.getSessionId();
                clients.worker(1).zookeeper(() -> fooled);
                fooled.create("/client-side", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
                Nemesis.Started c = sessions.start(new Fault(FaultKind.EXPIRE_CLIENT_SIDE, "process:1", Map.of()), 0,
                        ctx);
                assertEquals(oldSession, c.value().get("client_session"));
                assertEquals(true, c.value().get("event_thread_parked"), "the hook ran with the event thread held");
                assertFalse(c.value().containsKey("session"), "the server did not end the session");
                Thread.sleep(SESSION_MS / 2);
                assertTrue(exists(observer, "/client-side"), "the server keeps the node while the session lives");
                assertTrue(waitUntil(() -> !exists(observer, "/client-side"), SESSION_MS + 5000) >= 0,
                        "the server expires the old session in the end");
                fooled.close();
            } finally {
                observer.close();
            }
        }
    }

    @Test
    void trafficFaultsAndPartialIsolationPutTheRightToxicsOnTheRightProxiesAndTakeThemOff() throws Exception {
        try (ToxiproxyBackend proxies = ToxiproxyBackends.embedded();
             LocalEnsemble zk = LocalEnsemble.builder(dir).size(1).build()) {
            ProxyNetwork net = new ProxyNetwork(proxies.client(), "127.0.0.1");
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            ClientRegistry clients = new ClientRegistry(2);
            NemesisContext ctx = context(zk, clients, net);
            ZooKeeper a = ZooKeepers.connect(net.clientConnectString(0, zk.nodes()), 4000, Duration.ofSeconds(10));
            ZooKeeper b = ZooKeepers.connect(net.clientConnectString(1, zk.nodes()), 4000, Duration.ofSeconds(10));
            try {
                NetworkNemesis network = new NetworkNemesis();
                for (FaultKind kind : List.of(FaultKind.LATENCY, FaultKind.BANDWIDTH, FaultKind.RESET)) {
                    Nemesis.Started f = network.start(new Fault(kind, "clients", Map.of()), 1000, ctx);
                    assertEquals(2, f.value().get("proxies"), kind + " reaches both clients' proxies");
                    for (int w = 0; w < 2; w++) {
                        List<String> types = proxies.client().getProxy("client-" + w + "-n1").toxics().getAll()
                                .stream().map(t -> t.getClass().getSimpleName()).toList();
                        assertTrue(!types.isEmpty(), kind + " on client " + w + ": " + types);
                    }
                    f.stopper().stop();
                    assertTrue(proxies.client().getProxy("client-0-n1").toxics().getAll().isEmpty(),
                            kind + " is taken off");
                }
                // latency really slows the client down: a round trip takes at least the added 300 ms
                Nemesis.Started slow = network.start(new Fault(FaultKind.LATENCY, "clients",
                        Map.of("latency_ms", 300L)), 1000, ctx);
                long t0 = System.nanoTime();
                a.exists("/", false);
                assertTrue(System.nanoTime() - t0 >= 290_000_000L, "a round trip under 300 ms latency");
                slow.stopper().stop();
                Nemesis.Started one = network.start(new Fault(FaultKind.ISOLATE_CLIENT, "process:1",
                        Map.of("servers", 1L)), 1000, ctx);
                assertEquals(List.of(1), one.value().get("servers"));
                assertEquals(2, proxies.client().getProxy("client-1-n1").toxics().getAll().size(),
                        "both directions of client 1's proxy are cut");
                assertTrue(proxies.client().getProxy("client-0-n1").toxics().getAll().isEmpty(), "client 0 is not");
                network.heal(ctx);
                assertTrue(proxies.client().getProxy("client-1-n1").toxics().getAll().isEmpty(), "heal ends it");
            } finally {
                a.close();
                b.close();
            }
        }
    }

    @Test
    void networkFaultsThroughTheEmbeddedProxy() throws Exception {
        try (ToxiproxyBackend proxies = ToxiproxyBackends.embedded()) {
            ProxyNetwork net = new ProxyNetwork(proxies.client(), "127.0.0.1");
            try (LocalEnsemble zk = LocalEnsemble.builder(dir).size(3).routing(net).build()) {
                zk.start();
                zk.awaitHealthy(Duration.ofSeconds(60));
                assertEquals(12, net.allPeerProxies().size(), "quorum and election proxy per directed pair");
                ClientRegistry clients = new ClientRegistry(1);
                NemesisContext ctx = context(zk, clients, net);
                NetworkNemesis network = new NetworkNemesis();
                ZooKeeper observer = ZooKeepers.connect(zk.connectString(), 10_000, Duration.ofSeconds(10));
                try {
                    // a client isolated longer than its session timeout loses the session on the server
                    ZooKeeper victim = ZooKeepers.connect(net.clientConnectString(0, zk.nodes()), SESSION_MS,
                            Duration.ofSeconds(10));
                    clients.worker(0).zookeeper(() -> victim);
                    String node = victim.create("/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            CreateMode.EPHEMERAL_SEQUENTIAL);
                    Nemesis.Started iso = network.start(new Fault(FaultKind.ISOLATE_CLIENT, "process:0", Map.of()),
                            SESSION_MS * 3, ctx);
                    assertEquals(victim.getSessionId(), iso.value().get("session"));
                    assertTrue(waitUntil(() -> !exists(observer, node), SESSION_MS + 5000) >= 0,
                            "the isolated client's node disappears");
                    iso.stopper().stop();
                    victim.close();

                    // isolating the leader elects a new one among the others
                    ServerNode old = zk.leader().orElseThrow();
                    Nemesis.Started lead = network.start(new Fault(FaultKind.ISOLATE_SERVER, "leader", Map.of()), 1,
                            ctx);
                    assertEquals(old.id(), lead.value().get("node"));
                    List<ServerNode> rest = zk.nodes().stream().filter(n -> n.id() != old.id()).toList();
                    // under load (the whole suite on 2 cores) the first rounds can still follow the cut-off leader
                    assertTrue(waitUntil(() -> leaderAmong(rest).isPresent(), 60_000) >= 0, "a leader among "
                            + rest + "; modes now " + modes(zk));
                    lead.stopper().stop();
                    zk.awaitHealthy(Duration.ofSeconds(30));

                    halvesLeaveTheMinorityWithoutService(zk, network, ctx);
                    network.heal(ctx);
                    zk.awaitHealthy(Duration.ofSeconds(30));
                } finally {
                    observer.close();
                }
            }
        }
    }

    /**
     * The same partitions with iptables inside the servers' namespaces ({@code --cluster netns}), proven by their
     * effects: an isolated leader (both ways, then one way) loses its leadership, halves leave the minority without
     * service, packet loss of 100% stops the whole ensemble, and every stop and heal restores it and leaves no rule.
     */
    @Test
    void partitionsWithIptablesInNamespaces() throws Exception {
        String why = io.lockchaos.cluster.Netns.unavailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
        try (LocalEnsemble zk = LocalEnsemble.builder(dir).size(3).netns(io.lockchaos.cluster.Netns.create(3))
                .build()) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            provePartitionsByTheirEffects(zk, zk.netns());
        }
    }

    /** The same with the servers in containers, cut inside each container's namespace ({@code nsenter}). */
    @Test
    void partitionsWithIptablesInContainers() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.lockchaos.cluster.Docker.available(),
                "Docker is not available on this machine: container tests skipped");
        String why = io.lockchaos.cluster.Netns.unavailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
        try (io.lockchaos.zookeeper.ContainerEnsemble zk = io.lockchaos.zookeeper.ContainerEnsemble.builder(dir).size(3)
                .build()) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(120));
            provePartitionsByTheirEffects(zk, zk.namespaces());
        }
    }

    private void provePartitionsByTheirEffects(io.lockchaos.cluster.Cluster zk, io.lockchaos.cluster.ServerNamespaces ns)
            throws Exception {
        IptablesPartitioner iptables = new IptablesPartitioner(ns);
        NemesisContext ctx = new NemesisContext(zk, new ClientRegistry(0), null, iptables, SESSION_MS,
                new SplittableRandom(1));
        NetworkNemesis network = new NetworkNemesis();
        for (long oneWay : new long[] {0, 1}) {
            ServerNode old = leaderAmong(zk.nodes()).orElseThrow();
            Nemesis.Started lead = network.start(new Fault(FaultKind.ISOLATE_SERVER, "leader",
                    Map.of("one_way", oneWay)), 1, ctx);
            assertEquals(old.id(), lead.value().get("node"));
            assertEquals("iptables", lead.value().get("cut_by"), "the history says how the cut was made");
            int rules = 0;
            for (ServerNode n : zk.nodes()) {
                rules += iptables.rules(n.id()).size();
            }
            assertEquals(oneWay == 1 ? 2 : 4, rules, "a DROP rule per cut direction");
            List<ServerNode> rest = zk.nodes().stream().filter(n -> n.id() != old.id()).toList();
            assertTrue(waitUntil(() -> leaderAmong(rest).isPresent(), 60_000) >= 0, "one_way=" + oneWay
                    + ": a leader among " + rest + "; modes now " + modes(zk));
            lead.stopper().stop();
            assertNoRules(zk, iptables);
            zk.awaitHealthy(Duration.ofSeconds(60));
        }

        halvesLeaveTheMinorityWithoutService(zk, network, ctx);
        network.heal(ctx);
        assertNoRules(zk, iptables);
        zk.awaitHealthy(Duration.ofSeconds(60));

        Nemesis.Started loss = network.start(new Fault(FaultKind.PACKET_LOSS, "servers",
                Map.of("percent", 100L)), 1, ctx);
        assertTrue(iptables.rules(1).stream().anyMatch(r -> r.contains("statistic")), iptables.rules(1)
                .toString());
        assertTrue(waitUntil(() -> zk.nodes().stream().allMatch(n -> FourLetterWords.mode(n, 300).isEmpty()),
                60_000) >= 0, "no server serves without its peers' packets; modes now " + modes(zk));
        loss.stopper().stop();
        assertNoRules(zk, iptables);
        zk.awaitHealthy(Duration.ofSeconds(60));

        Nemesis.Started slow = network.start(new Fault(FaultKind.BANDWIDTH, "servers", Map.of("rate_kbs", 50L)),
                1, ctx);
        assertTrue(ns.exec(1, List.of("tc", "qdisc", "show", "dev", "eth0")).contains("tbf"),
                "a tbf queue limits server 1");
        slow.stopper().stop();
        assertTrue(!ns.exec(1, List.of("tc", "qdisc", "show", "dev", "eth0")).contains("tbf"),
                "and is gone when the fault ends");
    }

    /** Halves of 3: the majority side elects a leader, the minority side stops serving. */
    private static void halvesLeaveTheMinorityWithoutService(io.lockchaos.cluster.Cluster zk, NetworkNemesis network,
            NemesisContext ctx) throws Exception {
        Nemesis.Started halves = network.start(new Fault(FaultKind.PARTITION_HALVES, "", Map.of()), 1, ctx);
        @SuppressWarnings("unchecked")
        List<Integer> order = (List<Integer>) halves.value().get("order");
        ServerNode minority = zk.nodes().get(order.get(0) - 1);
        List<ServerNode> majority = order.subList(1, 3).stream().map(i -> zk.nodes().get(i - 1)).toList();
        assertTrue(waitUntil(() -> leaderAmong(majority).isPresent()
                && FourLetterWords.mode(minority, 300).isEmpty(), 60_000) >= 0,
                "majority " + majority + " leads, minority " + minority + " does not serve; modes now "
                + modes(zk));
        Optional<ServerNode> leader = leaderAmong(majority);
        assertNotNull(leader.orElse(null));
        assertNotEquals(minority.id(), leader.get().id());
    }

    private static void assertNoRules(io.lockchaos.cluster.Cluster zk, IptablesPartitioner iptables) throws java.io.IOException {
        for (ServerNode n : zk.nodes()) {
            assertEquals(List.of(), iptables.rules(n.id()), "rules left in server " + n.id() + "'s namespace");
        }
    }
}
