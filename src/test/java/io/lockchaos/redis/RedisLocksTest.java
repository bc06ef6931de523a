package io.lockchaos.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.client.LockRecipe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/** The contract of each Redis recipe against real instances, and the tutorial's release race made to happen. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class RedisLocksTest {
    @TempDir
    static Path dir;
    static RedisServers servers;
    static List<String> all;
    static int n;

    @BeforeAll
    static void start() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(RedisServers.findExecutable() != null, RedisServers.MISSING);
        servers = RedisServers.builder(dir).size(3).build();
        servers.start();
        servers.awaitHealthy(Duration.ofSeconds(20));
        all = List.of(servers.connectString().split(","));
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    private static LockClient open(String recipe, String key, long leaseMillis) {
        LockRecipe r = LockRecipe.parse(recipe);
        return RedisLocks.open(r, key, recipe.equals("redis-single") ? all.subList(0, 1) : all, leaseMillis, 100);
    }

    private static String key() {
        return "/test/lock-" + (++n);
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis-single", "redlock-tutorial", "redlock"})
    void oneHolderAtATimeAndTheNextAfterTheRelease(String recipe) throws Exception {
        String key = key();
        try (LockClient a = open(recipe, key, 10_000); LockClient b = open(recipe, key, 10_000)) {
            Grant g = a.acquire(Duration.ofSeconds(2));
            assertNotNull(g, "the free lock is granted");
            Map<String, Object> v = g.toValue();
            assertFalse(v.containsKey("token"), "a Redis grant has no fencing token: " + v);
            assertEquals("none", v.get("fencing"));
            assertEquals(RedisLocks.idOf(a), RedisLocks.ownerOf((String) v.get("value")), "the value names its owner");
            assertEquals(key, g.node());
            assertNull(b.acquire(Duration.ofMillis(300)), "a second client waits out its timeout");
            assertTrue(a.stillHolds());
            assertTrue(a.release(), "released");
            Grant next = b.acquire(Duration.ofSeconds(2));
            assertNotNull(next, "the next client gets it");
            assertTrue(b.release());
            // what polling cost the service: the first grant took one try, the second paid for the timed-out wait too
            assertEquals(1L, g.facts().get("tries"), g.facts().toString());
            assertTrue((Long) next.facts().get("tries") > 1, next.facts().toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis-single", "redlock"})
    void aHolderGivesUpAtTheEndOfItsLeaseAndItsLateReleaseSaysNotHeld(String recipe) throws Exception {
        String key = key();
        try (LockClient a = open(recipe, key, 300); LockClient b = open(recipe, key, 300)) {
            Grant g = a.acquire(Duration.ofSeconds(2));
            assertNotNull(g);
            long validity = ((Number) g.toValue().get("validity_ms")).longValue();
            assertTrue(validity > 0 && validity <= 300 - RedLock.drift(300), "validity " + validity);
            Thread.sleep(400);
            assertFalse(a.stillHolds(), "past its validity the holder knows it may no longer act");
            assertNotNull(b.acquire(Duration.ofSeconds(2)), "the expired lock is free");
            assertFalse(a.release(), "the first holder's release finds the lock gone (and leaves b's alone)");
            assertTrue(b.release(), "b still held it");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redisson", "redisson-fenced"})
    void redissonsWatchdogKeepsTheLockPastItsLeaseAndItsFencedLockCountsUp(String recipe) throws Exception {
        String key = key();
        LockRecipe r = LockRecipe.parse(recipe);
        List<String> one = all.subList(0, 1);
        try (LockClient a = RedisLocks.open(r, key, one, 600, 100); LockClient b = RedisLocks.open(r, key, one, 600,
                100)) {
            Grant g = a.acquire(Duration.ofSeconds(2));
            assertNotNull(g);
            assertEquals(recipe.equals("redisson-fenced"), g.toValue().containsKey("token"), g.toValue().toString());
            Thread.sleep(1500); // two and a half leases: the watchdog renews every third of one
            assertNull(b.acquire(Duration.ofMillis(200)), "still held through the watchdog");
            assertTrue(a.release());
            assertFalse(a.release(), "a second release finds nothing held");
            Grant h = b.acquire(Duration.ofSeconds(2));
            assertNotNull(h);
            if (recipe.equals("redisson-fenced")) {
                assertTrue(h.czxid() > g.czxid(), "the token grows: " + g.czxid() + " then " + h.czxid());
            }
            assertTrue(b.release());
        }
    }

    @Test
    void aRedissonHoldersLockExpiresOneLeaseAfterItsClientIsGone() throws Exception {
        String key = key();
        LockRecipe r = LockRecipe.parse("redisson");
        List<String> one = all.subList(0, 1);
        try (LockClient b = RedisLocks.open(r, key, one, 600, 100)) {
            LockClient a = RedisLocks.open(r, key, one, 600, 100);
            assertNotNull(a.acquire(Duration.ofSeconds(2)));
            a.close(); // no unlock: its watchdog stops with it
            long t0 = System.nanoTime();
            assertNotNull(b.acquire(Duration.ofSeconds(3)), "free again once the last renewal ran out");
            assertTrue(System.nanoTime() - t0 > 100_000_000L, "not at once");
            assertTrue(b.release());
        }
    }

    @Test
    void redlockHoldsOnAMajorityWhenOneInstanceIsDown() throws Exception {
        String key = key();
        var third = servers.nodes().get(2);
        servers.kill(third);
        try (LockClient a = open("redlock", key, 10_000); LockClient b = open("redlock", key, 10_000)) {
            Grant g = a.acquire(Duration.ofSeconds(2));
            assertNotNull(g, "2 of 3 is a majority");
            assertEquals(2, g.toValue().get("instances"));
            assertNull(b.acquire(Duration.ofMillis(300)));
            assertTrue(a.release());
        } finally {
            servers.restart(third);
        }
    }

    /**
     * The tutorial's RedLock keeps Jedis' 2 s timeout per instance: with one instance paused, an attempt takes longer than a 1 s
     * lease and cannot succeed; Redlock's short per-instance timeout leaves it most of its lease.
     */
    @Test
    void withOneInstancePausedTheSeedNeverAcquiresAndRedlockDoes() throws Exception {
        var paused = servers.nodes().get(0);
        servers.pause(paused);
        try (LockClient seed = open("redlock-tutorial", key(), 1000); LockClient redlock = open("redlock", key(), 1000)) {
            long t0 = System.nanoTime();
            assertNull(seed.acquire(Duration.ofMillis(2500)), "the tutorial's RedLock: every attempt outlasts the lease");
            assertTrue(System.nanoTime() - t0 >= 2_000_000_000L, "an attempt waits 2 s on the paused instance");
            Grant g = redlock.acquire(Duration.ofMillis(2500));
            assertNotNull(g, "redlock: 2 of 3 within its 100 ms per-instance timeout");
            assertTrue(((Number) g.toValue().get("validity_ms")).longValue() > 500, g.toValue().toString());
            assertTrue(redlock.release());
        } finally {
            servers.resume(paused);
        }
    }

    @Test
    void redlockRefusesWithoutAMajority() throws Exception {
        String key = key();
        var first = servers.nodes().get(0);
        try (Jedis j = new Jedis(first.host(), first.clientPort()); LockClient a = open("redlock", key, 10_000)) {
            servers.kill(servers.nodes().get(2));
            j.set(key, "someone-else"); // 1 of 3 taken, 1 down: 1 left, no majority
            assertNull(a.acquire(Duration.ofMillis(300)));
            assertEquals("someone-else", j.get(key), "its failed attempts leave the other's key alone");
        } finally {
            servers.restart(servers.nodes().get(2));
        }
    }

    /**
     * On one instance, as in the scenario redlock-tutorial-release: on N instances one pause deletes the next holder's lock
     * on the first instance only, which leaves it its majority.
     */
    @Test
    void theSeedsReleaseDeletesTheNextHoldersLockAndRedlocksDoesNot() throws Exception {
        List<String> one = all.subList(0, 1);
        for (String recipe : List.of("redlock-tutorial", "redlock")) {
            String key = key();
            LockRecipe r = LockRecipe.parse(recipe);
            try (LockClient a = RedisLocks.open(r, key, one, 300, 100);
                 LockClient b = RedisLocks.open(r, key, one, 10_000, 100);
                 LockClient c = RedisLocks.open(r, key, one, 10_000, 100)) {
                assertNotNull(a.acquire(Duration.ofSeconds(2)));
                Grant[] bGrant = new Grant[1];
                // a pauses inside its release past its lease; b acquires meanwhile
                boolean released = a.release(() -> {
                    Thread.sleep(400);
                    try {
                        bGrant[0] = b.acquire(Duration.ofSeconds(2));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertNotNull(bGrant[0], recipe + ": b acquired the expired lock");
                Grant third = c.acquire(Duration.ofMillis(300));
                if (recipe.equals("redlock-tutorial")) {
                    assertTrue(released, "the tutorial's RedLock cannot tell that it no longer held the lock");
                    assertNotNull(third, "the tutorial's RedLock deleted b's lock: c holds it too");
                    assertNotEquals(bGrant[0].toValue().get("value"), third.toValue().get("value"));
                } else {
                    assertFalse(released, "redlock's release found the lock gone");
                    assertNull(third, "redlock left b's lock alone");
                }
            }
        }
    }
}
