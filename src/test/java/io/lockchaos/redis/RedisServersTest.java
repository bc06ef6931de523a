package io.lockchaos.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.cluster.ServerNode;
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
import redis.clients.jedis.params.SetParams;

/** Real redis-server instances: loopback only, amnesia after a restart, SIGSTOP, clock jumps, death with the runner. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class RedisServersTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void redisServerIsThere() {
        org.junit.jupiter.api.Assumptions.assumeTrue(RedisServers.findExecutable() != null, RedisServers.MISSING);
    }

    private static Jedis jedis(ServerNode n) {
        return new Jedis(n.host(), n.clientPort(), 2000, 2000);
    }

    @Test
    void instancesAnswerOnLoopbackAndForgetTheirLocksWhenRestartedWithoutPersistence() throws Exception {
        try (RedisServers s = RedisServers.builder(dir).size(3).build()) {
            s.start();
            s.awaitHealthy(Duration.ofSeconds(20));
            assertEquals(3, s.nodes().size());
            for (ServerNode n : s.nodes()) {
                assertEquals("127.0.0.1", n.host());
                try (Jedis j = jedis(n)) {
                    assertEquals("127.0.0.1:" + n.clientPort(), j.configGet("bind").get("bind").split(" ")[0] + ":"
                            + n.clientPort());
                    assertEquals("OK", j.set("k", "v", SetParams.setParams().nx().px(60_000)));
                }
            }
            ServerNode first = s.nodes().get(0);
            long before = s.pid(first);
            s.kill(first);
            assertFalse(ProcessHandle.of(before).map(ProcessHandle::isAlive).orElse(false), "killed");
            s.restart(first);
            try (Jedis j = jedis(first)) {
                assertNull(j.get("k"), "a restarted instance without persistence has forgotten the lock");
            }
            try (Jedis j = jedis(s.nodes().get(1))) {
                assertEquals("v", j.get("k"), "the others keep theirs");
            }
        }
    }

    @Test
    void withAppendOnlyARestartedInstanceKeepsItsLocks() throws Exception {
        try (RedisServers s = RedisServers.builder(dir).size(1).appendOnly(true).build()) {
            s.start();
            s.awaitHealthy(Duration.ofSeconds(20));
            ServerNode n = s.nodes().get(0);
            try (Jedis j = jedis(n)) {
                assertEquals("OK", j.set("k", "v", SetParams.setParams().nx().px(60_000)));
            }
            s.kill(n);
            s.restart(n);
            try (Jedis j = jedis(n)) {
                assertEquals("v", j.get("k"));
                assertTrue(j.pttl("k") > 50_000, "with its lease");
            }
        }
    }

    @Test
    void aPausedInstanceDoesNotAnswerUntilResumed() throws Exception {
        try (RedisServers s = RedisServers.builder(dir).size(1).build()) {
            s.start();
            s.awaitHealthy(Duration.ofSeconds(20));
            ServerNode n = s.nodes().get(0);
            s.pause(n);
            assertFalse(RedisServers.ping(n), "SIGSTOPped");
            s.resume(n);
            assertTrue(RedisServers.ping(n), "SIGCONTinued");
        }
    }

    @Test
    void aClockJumpExpiresLocksOnThatInstanceOnly() throws Exception {
        try (RedisServers s = RedisServers.builder(dir).size(3).clockShift(true).build()) {
            s.start();
            s.awaitHealthy(Duration.ofSeconds(20));
            for (ServerNode n : s.nodes()) {
                try (Jedis j = jedis(n)) {
                    assertEquals("OK", j.set("k", "v", SetParams.setParams().nx().px(10_000)));
                }
            }
            ServerNode jumped = s.nodes().get(1);
            long wallBefore;
            try (Jedis j = jedis(jumped)) {
                wallBefore = Long.parseLong(j.time().get(0));
            }
            s.shiftClock(jumped, 20_000);
            assertEquals(20_000, s.clockOffset(jumped));
            try (Jedis j = jedis(jumped)) {
                assertNull(j.get("k"), "expired at once on the instance whose clock jumped past the lease");
                long wallAfter = Long.parseLong(j.time().get(0));
                assertTrue(wallAfter - wallBefore >= 19, "its TIME moved " + (wallAfter - wallBefore) + " s");
            }
            for (ServerNode n : List.of(s.nodes().get(0), s.nodes().get(2))) {
                try (Jedis j = jedis(n)) {
                    assertEquals("v", j.get("k"), "the other instances keep the lock");
                    long skew = Long.parseLong(j.time().get(0)) - System.currentTimeMillis() / 1000;
                    assertTrue(Math.abs(skew) <= 1, "and the machine's time: " + skew);
                }
            }
            s.shiftClock(jumped, 0);
            try (Jedis j = jedis(jumped)) {
                long skew = Long.parseLong(j.time().get(0)) - System.currentTimeMillis() / 1000;
                assertTrue(Math.abs(skew) <= 1, "back to the machine's time: " + skew);
            }
        }
    }

    @Test
    void instancesDieWithARunnerKilledBySigkill() throws Exception {
        Files.createDirectories(dir.resolve("holder"));
        io.lockchaos.cluster.KilledRunner.childrenDieWith(RedisHolder.class, 3, "redis-server",
                dir.resolve("holder").toString());
    }
}
