package io.lockchaos.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.Client;
import io.lockchaos.api.Grant;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.cluster.ServerNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The etcd members lockchaos starts, and the contract of its two etcd locks against them. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class EtcdLocksTest {
    @TempDir
    static Path dir;
    static EtcdServers servers;
    static final ScheduledExecutorService RENEWALS = Executors.newScheduledThreadPool(1);
    static int n;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(EtcdServers.findExecutable() != null, EtcdServers.MISSING);
        servers = EtcdServers.create(dir.resolve("cluster"), 3);
        servers.start();
        servers.awaitHealthy(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
        RENEWALS.shutdownNow();
    }

    private static EtcdLock open(String name, boolean fenced) throws Exception {
        Client c = EtcdLockFactory.connect(servers.nodes().stream().map(ServerNode::clientAddress).toList(),
                Duration.ofSeconds(5));
        return new EtcdLock(c, name, Duration.ofSeconds(2), Duration.ofSeconds(5), fenced, RENEWALS);
    }

    private static String name() {
        return "/test/lock-" + (++n);
    }

    @Test
    void membersListenOnLoopbackAndOneLeads() {
        List<String> roles = new ArrayList<>();
        for (ServerNode m : servers.nodes()) {
            assertEquals("127.0.0.1", m.host());
            roles.add(servers.role(m, 2000));
        }
        assertEquals(1, roles.stream().filter("leader"::equals).count(), roles.toString());
        assertEquals(2, roles.stream().filter("follower"::equals).count(), roles.toString());
    }

    @Test
    void oneHolderAtATimeTheNextAfterTheReleaseAndRenewalsKeepTheLeasePastItsTtl() throws Exception {
        String name = name();
        try (EtcdLock a = open(name, false); EtcdLock b = open(name, false)) {
            assertFalse(a.stillHolds(), "nothing held before the first acquire");
            Grant g = a.acquire(Duration.ofSeconds(5));
            assertNotNull(g);
            assertTrue(g.node().startsWith(name + "/"), g.node());
            assertTrue((long) g.facts().get("create_revision") > 0, g.facts().toString());
            assertNull(b.acquire(Duration.ofMillis(500)), "the lock is held");
            Thread.sleep(3000); // past the 2 s TTL: only the renewals keep it
            assertTrue(a.stillHolds(), "renewed");
            assertNull(b.acquire(Duration.ofMillis(500)), "still held after its TTL");
            assertTrue(a.release());
            assertFalse(a.stillHolds(), "nothing held after the release");
            Thread.sleep(1000); // a renewal in flight at the release changes nothing
            assertFalse(a.stillHolds(), "nothing held after the release");
            assertNotNull(b.acquire(Duration.ofSeconds(5)), "granted after the release");
            assertTrue(b.release());
        }
    }

    @Test
    void aFencedWriteIsRefusedOnceTheHoldersKeyIsGone() throws Exception {
        String name = name();
        String set = name + "/set";
        try (EtcdLock a = open(name, true); EtcdLock b = open(name, true)) {
            assertNotNull(a.acquire(Duration.ofSeconds(5)));
            a.writeSet(set, List.of(1L));
            assertEquals(List.of(1L), b.readSet(set));
            // the holder's lease ends (as by expiry): its key goes, the next client is granted
            try (Client admin = Client.builder().endpoints(EtcdServers.url(servers.nodes().get(0).clientAddress()))
                    .build()) {
                admin.getLeaseClient().revoke(a.leaseId()).get(5, TimeUnit.SECONDS);
            }
            assertNotNull(b.acquire(Duration.ofSeconds(5)));
            b.writeSet(set, List.of(1L, 2L));
            assertThrows(TransactionalSet.Rejected.class, () -> a.writeSet(set, List.of(1L, 3L)));
            assertEquals(List.of(1L, 2L), b.readSet(set), "the stale write changed nothing");
            assertFalse(a.release(), "its key was gone: not held");
            assertTrue(b.release());
        }
    }

    @Test
    void aKilledLeaderRejoinsAndAPausedMemberResumes() throws Exception {
        ServerNode m = servers.nodes().stream().filter(x -> servers.role(x, 2000).equals("leader")).findFirst()
                .orElseThrow();
        servers.kill(m);
        assertFalse(EtcdServers.healthy(m.clientAddress()));
        // opened while the other two elect a leader: the client's warm-up waits the election out
        String name = name();
        try (EtcdLock a = open(name, false)) {
            assertNotNull(a.acquire(Duration.ofSeconds(5)), "a majority grants");
            assertTrue(a.release());
        }
        servers.restart(m);
        servers.awaitHealthy(Duration.ofSeconds(30));
        servers.pause(m);
        try {
            assertFalse(EtcdServers.healthy(m.clientAddress()), "a stopped member does not answer");
        } finally {
            servers.resume(m);
        }
        servers.awaitHealthy(Duration.ofSeconds(30));
    }

    @Test
    void membersDieWithARunnerKilledBySigkillAndTheNextStartSweepsTheirData() throws Exception {
        Files.createDirectories(dir.resolve("holder"));
        io.lockchaos.cluster.KilledRunner.childrenDieWith(EtcdHolder.class, 3, "etcd",
                dir.resolve("holder").toString());
        Path data = scratchOf(dir.resolve("holder"));
        assertTrue(Files.isDirectory(data), "a SIGKILLed runner deletes nothing itself: " + data);
        assertTrue(io.lockchaos.cluster.ScratchFolders.sweep("lockchaos-etcd-") >= 1);
        assertFalse(Files.exists(data), "swept: " + data);
        assertTrue(Files.isDirectory(scratchOf(dir.resolve("cluster"))), "this runner's own is left alone");
    }

    @Test
    void closingDeletesTheMembersDataAndKeepsTheirLogs() throws Exception {
        EtcdServers one = EtcdServers.create(dir.resolve("one"), 1);
        try {
            one.start();
            one.awaitHealthy(Duration.ofSeconds(30));
        } finally {
            one.close();
        }
        assertFalse(Files.exists(scratchOf(dir.resolve("one"))));
        assertTrue(Files.size(dir.resolve("one/etcd-1/etcd.log")) > 0);
    }

    /**
     * Members in network namespaces of their own (cluster netns) talk over the namespaces' links: a leader cut from
     * both others by iptables loses its leadership to one of them, the cut's rules go when it heals, and closing the
     * members removes their namespaces and data.
     */
    @Test
    void membersInNamespacesAreCutApartByIptablesAndLeaveNoNamespaceBehind() throws Exception {
        String why = io.lockchaos.cluster.Netns.unavailable();
        Assumptions.assumeTrue(why == null, why);
        io.lockchaos.cluster.Netns ns = io.lockchaos.cluster.Netns.create(3);
        EtcdServers three = EtcdServers.create(dir.resolve("netns"), 3, ns);
        try {
            three.start();
            three.awaitHealthy(Duration.ofSeconds(30));
            assertTrue(three.nodes().get(0).host().startsWith("10.213."), three.nodes().get(0).host());
            ServerNode old = three.nodes().stream().filter(x -> three.role(x, 2000).equals("leader")).findFirst()
                    .orElseThrow();
            io.lockchaos.nemesis.IptablesPartitioner cut = new io.lockchaos.nemesis.IptablesPartitioner(ns);
            for (ServerNode other : three.nodes()) {
                if (other.id() != old.id()) {
                    cut.cutOneWay(old, other, "lc-test");
                    cut.cutOneWay(other, old, "lc-test");
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            List<ServerNode> rest = three.nodes().stream().filter(x -> x.id() != old.id()).toList();
            while (rest.stream().noneMatch(x -> three.role(x, 1000).equals("leader"))) {
                assertTrue(System.nanoTime() < deadline, "no leader among the two the cut left together");
                Thread.sleep(100);
            }
            cut.remove("lc-test");
            for (ServerNode m : three.nodes()) {
                assertTrue(cut.rules(m.id()).isEmpty(), "healed: no rule left in " + m.id());
            }
            three.awaitHealthy(Duration.ofSeconds(30));
        } finally {
            three.close();
        }
        String left = io.lockchaos.cluster.Netns.run(List.of("ip", "netns", "list"));
        assertFalse(left.contains(ns.namespace(1)), left);
        assertFalse(Files.exists(scratchOf(dir.resolve("netns"))));
    }

    /** The scratch folder a cluster's data went to, as its first member's folder records it. */
    private static Path scratchOf(Path baseDir) throws Exception {
        String line = Files.readString(baseDir.resolve("etcd-1/data-folder.txt")).strip();
        return Path.of(line.substring(0, line.indexOf(' '))).getParent();
    }
}
