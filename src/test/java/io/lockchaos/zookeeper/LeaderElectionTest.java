package io.lockchaos.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.client.ClientContext;
import io.lockchaos.client.LockSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Curator's leader elections as locks, on one real server: one leader at a time, a leader's second ask refused, the
 * next candidate leads once the first gives up, and a leader whose server stops past the read timeout is told its
 * leadership is gone ({@link LockContext#revoked}) without anyone releasing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class LeaderElectionTest {
    @TempDir
    Path dir;

    @Test
    void aLatchLeadsAloneAndIsToldWhenItsLeadershipIsTaken() throws Exception {
        elect("latch", (c, ctx) -> new CuratorLeaderLatch(c, "/election", ctx));
    }

    @Test
    void aSelectorLeadsAloneAndIsToldWhenItsLeadershipIsTaken() throws Exception {
        elect("selector", (c, ctx) -> new CuratorLeaderSelector(c, "/election", ctx));
    }

    private void elect(String name, BiFunction<CuratorFramework, LockContext, LockClient> open) throws Exception {
        try (LocalEnsemble zk = LocalEnsemble.builder(dir.resolve(name)).size(1).build()) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            List<String> revoked = new CopyOnWriteArrayList<>();
            try (CuratorFramework a = connect(zk); CuratorFramework b = connect(zk)) {
                LockClient first = open.apply(a, context(zk, revoked));
                LockClient second = open.apply(b, context(zk, new CopyOnWriteArrayList<>()));
                Grant g = first.acquire(Duration.ofSeconds(10));
                assertNotNull(g, "the only candidate leads");
                assertTrue(first.stillHolds());
                assertNull(first.acquire(Duration.ofMillis(200)), "a leader's second ask is refused");
                assertNull(second.acquire(Duration.ofMillis(500)), "one leader at a time");
                assertTrue(first.release(), "it led until it gave leadership up");
                assertFalse(first.stillHolds());
                assertNotNull(second.acquire(Duration.ofSeconds(10)), "the next candidate leads");
                assertTrue(second.release());
                assertNotNull(first.acquire(Duration.ofSeconds(10)));
                // its server stops past 2/3 of the 2 s session: SUSPENDED, and the library takes leadership away
                zk.pause(zk.nodes().get(0));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (revoked.isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                zk.resume(zk.nodes().get(0));
                assertEquals(1, revoked.size(), "told once: " + revoked);
                assertFalse(first.stillHolds(), "no longer leading once told");
                assertFalse(first.release(), "a release after the revocation finds nothing held");
                first.close();
                second.close();
            }
        }
    }

    private static CuratorFramework connect(LocalEnsemble zk) throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(zk.connectString(), 2000, 2000,
                new RetryNTimes(3, 100));
        c.start();
        assertTrue(c.blockUntilConnected(20, TimeUnit.SECONDS));
        return c;
    }

    /** A context whose revocations are kept in {@code revoked} (their reasons). */
    private static LockContext context(LocalEnsemble zk, List<String> revoked) {
        return new ClientContext(new LockSettings(zk.connectString(), "/election", false, List.of("/election"), 2000,
                LockSettings.LEASE_MS, LockSettings.REQUEST_TIMEOUT_MS), () -> 0, (state, session, why) -> {
                    if (LockContext.REVOKED.equals(state)) {
                        revoked.add(why);
                    }
                }, null);
    }
}
