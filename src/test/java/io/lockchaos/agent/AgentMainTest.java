package io.lockchaos.agent;

import io.lockchaos.api.Grant;
import io.lockchaos.client.LockSettings;
import io.lockchaos.zookeeper.LocalEnsemble;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Client agents on an older Curator than the linked one (5.4.0, resolved from Maven Central), against a real
 * ensemble: what they report, what a grant carries, how the nemesis reaches their sessions, and that they go with
 * their runner.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class AgentMainTest {
    static final String OLD = "5.4.0";
    private static final int SESSION_MS = 2000;
    private static LocalEnsemble ensemble;
    private static AgentLauncher agents;
    @org.junit.jupiter.api.io.TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        ensemble = LocalEnsemble.builder(dir.resolve("servers")).size(1).tickTime(100).build();
        ensemble.start();
        ensemble.awaitHealthy(Duration.ofSeconds(60));
        agents = AgentLauncher.start(VersionResolver.defaults().classpath(OLD), 2, dir.resolve("agents"));
        agents.allow(AgentWire.endpoints(ensemble.connectString()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (agents != null) {
            agents.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }

    private static LockSettings settings(String key) {
        return new LockSettings(ensemble.connectString(), key, false, List.of(), SESSION_MS, LockSettings.LEASE_MS,
                LockSettings.REQUEST_TIMEOUT_MS);
    }

    private static RemoteClient client(int agent, String recipe, String key, List<String> states) throws Exception {
        RemoteClient c = RemoteClient.connect(agents.agents().get(agent));
        c.open(recipe, settings(key), 0, (state, about, why) -> states.add(state));
        return c;
    }

    @Test
    void agentsRunTheVersionAskedForAndGrantsCarryTheNodesFacts() throws Exception {
        assertEquals(OLD, agents.curatorVersion());
        assertTrue(agents.agents().get(0).zookeeper().startsWith("3."), agents.agents().get(0).zookeeper());
        List<String> states = new CopyOnWriteArrayList<>();
        try (RemoteClient a = client(0, "reentrant-mutex", "/facts", states);
             RemoteClient b = client(1, "reentrant-mutex", "/facts", new ArrayList<>())) {
            assertEquals(List.of("CONNECTED"), states);
            Grant g = a.acquire(Duration.ofSeconds(5));
            assertNotNull(g);
            assertTrue(g.node().startsWith("/facts/"), g.node());
            assertTrue(g.czxid() > 0, "czxid " + g.czxid());
            assertEquals(a.sessionId(), g.session());
            assertEquals(g.session(), g.owner(), "its own session owns the node");
            assertTrue(g.seq() >= 0);
            assertNull(b.acquire(Duration.ofMillis(300)), "the other client times out");
            assertTrue(a.release(), "the node was there");
            Grant h = b.acquire(Duration.ofSeconds(5));
            assertNotNull(h);
            assertTrue(h.czxid() > g.czxid(), "tokens grow");
            assertTrue(b.release());
        }
    }

    @Test
    void aServerSideExpiryReachesTheAgentsSessionAndItsNode() throws Exception {
        List<String> states = new CopyOnWriteArrayList<>();
        try (RemoteClient a = client(0, "reentrant-mutex", "/expiry", states)) {
            Grant g = a.acquire(Duration.ofSeconds(5));
            assertNotNull(g);
            long session = a.sessionId();
            expireOnServer(session, a.password());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!states.contains("LOST") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(states.contains("LOST"), states.toString());
            assertFalse(a.release(), "the server deleted the node with the session");
            while (a.sessionId() == session && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(a.sessionId() != session && a.sessionId() != 0, "a new session: " + a.sessionId());
        }
    }

    @Test
    void aClientSideExpiryIsTheClientsAlone() throws Exception {
        List<String> states = new CopyOnWriteArrayList<>();
        try (RemoteClient a = client(1, "mutex", "/client-side", states);
             org.apache.zookeeper.ZooKeeper observer = new org.apache.zookeeper.ZooKeeper(ensemble.connectString(),
                     10_000, e -> { })) {
            long session = a.sessionId();
            Grant g = a.acquire(Duration.ofSeconds(5));
            assertNotNull(g);
            long t0 = System.nanoTime();
            assertTrue(a.expireClientSide(), "the agent held its client's event thread while the hook ran");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!states.contains("LOST") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(states.contains("LOST"), states.toString());
            assertTrue(session != 0);
            // the server still has the old session: its lock node is there, owned by it (the old handle did not
            // send closeSession as Curator closed it)
            org.apache.zookeeper.data.Stat stat = observer.exists(g.node(), false);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (stat == null) {
                // the server may rightly expire the old session from 2/3 of its timeout after the fault on (its last
                // ping may be that old); before that, a missing node means the client closed the session
                assertTrue(ms >= SESSION_MS * 2 / 3, "the old session's node was gone " + ms
                        + " ms after the fault: the client ended the session");
            } else {
                assertEquals(session, stat.getEphemeralOwner());
            }
        }
    }

    @Test
    void aKilledAgentFailsTheAcquireInFlight() throws Exception {
        AgentLauncher own = AgentLauncher.start(VersionResolver.defaults().classpath(OLD), 1, dir.resolve("doomed"));
        own.allow(AgentWire.endpoints(ensemble.connectString()));
        try (RemoteClient holder = client(0, "reentrant-mutex", "/doomed", new ArrayList<>());
             RemoteClient waiter = RemoteClient.connect(own.agents().get(0))) {
            waiter.open("reentrant-mutex", settings("/doomed"), 0, (s, a, w) -> { });
            assertNotNull(holder.acquire(Duration.ofSeconds(5)));
            CompletableFuture<Throwable> failed = CompletableFuture.supplyAsync(() -> {
                try {
                    waiter.acquire(Duration.ofSeconds(60));
                    return null;
                } catch (Exception e) {
                    return e;
                }
            });
            Thread.sleep(300);
            own.close();
            Throwable t = failed.get(20, TimeUnit.SECONDS);
            assertTrue(t instanceof IOException, String.valueOf(t));
            assertEquals("java.io.IOException: client agent connection lost", t.toString());
            assertTrue(holder.release());
        } finally {
            own.close();
        }
    }

    @Test
    void anUnknownVersionIsOneLineAndAPathIsNoVersion() {
        VersionResolver r = new VersionResolver(dir.resolve("empty-repo"), "https://repo.maven.apache.org/maven2/");
        VersionResolver.UnresolvableVersion e = assertThrows(VersionResolver.UnresolvableVersion.class,
                () -> r.classpath("0.0.1"));
        assertTrue(e.getMessage().startsWith("curator: version 0.0.1 cannot be resolved from "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        e = assertThrows(VersionResolver.UnresolvableVersion.class, () -> r.classpath("../../etc"));
        assertEquals("curator: '../../etc' is not a version (expected e.g. 5.4.0)", e.getMessage());
    }

    @Test
    void agentsDieWithARunnerKilledBySigkill() throws Exception {
        io.lockchaos.cluster.KilledRunner.childrenDieWith(AgentHolder.class, 2, "agent",
                dir.resolve("holder").toString(), OLD);
    }

    /** Ends a session on the server the way the nemesis does: a second handle joins it and closes it. */
    private static void expireOnServer(long session, byte[] password) throws Exception {
        CountDownLatch joined = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(ensemble.connectString(), SESSION_MS, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                joined.countDown();
            }
        }, session, password);
        try {
            assertTrue(joined.await(10, TimeUnit.SECONDS), "joined the session");
        } finally {
            twin.close();
        }
    }
}
