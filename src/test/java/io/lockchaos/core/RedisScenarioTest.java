package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.Verdict;
import io.lockchaos.redis.RedisServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Redis scenario files reach their expected verdicts for the reasons they give, the same schedules without the
 * decisive fault (or against the correct recipe) are valid, and a fault-free run of each recipe is valid.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class RedisScenarioTest {
    @TempDir
    Path dir;
    private int runs;

    @BeforeAll
    static void redisServerIsThere() {
        org.junit.jupiter.api.Assumptions.assumeTrue(RedisServers.findExecutable() != null, RedisServers.MISSING);
    }

    private Runner.Outcome run(String file, Map<String, String> overrides) throws Exception {
        TestSpec spec = TestSpecs.validate(file, TestSpecs.with(file, TestSpecs.load(Path.of("workloads", file)),
                overrides));
        Path runDir = dir.resolve(spec.name() + "-" + (++runs));
        Files.createDirectories(runDir);
        Runner.writeTestJson(runDir, spec);
        return new Runner(spec, runDir).run();
    }

    private static void assertVerdict(Verdict expected, Runner.Outcome o, String what) {
        assertEquals(expected, o.result().verdict(), what + ": " + o.result().violationKinds() + " in " + o.dir());
    }

    @ParameterizedTest
    @CsvSource({"redlock, 3", "redlock-tutorial, 3", "redis-single, 1", "redisson, 1", "redisson-fenced, 1"})
    void aHolderPausedPastItsLeaseOverlapsTheNextAndLosesAnAdd(String recipe, String nodes) throws Exception {
        // the pause (0.5 s to 3.5 s) and what follows it fit in 4 s
        Runner.Outcome o = run("redis-gc-pause.json", Map.of("recipe", recipe, "nodes", nodes, "time_s", "4"));
        assertVerdict(Verdict.INVALID, o, recipe);
        assertTrue(o.result().violationKinds().containsAll(Set.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE)),
                recipe + ": " + o.result().violationKinds());
        assertEquals(0, o.faultsFailed());
        if (recipe.equals("redisson-fenced")) {
            // its token lets the fenced register refuse the paused holder's write
            assertEquals(Verdict.VALID, o.result().children().stream().filter(c -> c.checker().equals("fencing"))
                    .findFirst().orElseThrow().verdict());
        }
    }

    @Test
    void anInstanceRestartedWithoutPersistenceGivesASecondMajorityAndWithPersistenceItDoesNot() throws Exception {
        Runner.Outcome amnesia = run("redis-restart-amnesia.json", Map.of());
        assertVerdict(Verdict.INVALID, amnesia, "amnesia");
        assertTrue(amnesia.result().violationKinds().contains(AnomalyKind.DOUBLE_HOLDER));
        assertEquals(3, amnesia.faultsStarted());
        assertVerdict(Verdict.VALID, run("redis-restart-amnesia.json", Map.of("redis_appendonly", "true")),
                "append-only");
    }

    @Test
    void aClockJumpOnOneInstanceGivesASecondMajorityAndWithoutItTheScheduleIsValid() throws Exception {
        Runner.Outcome jump = run("redis-clock-jump.json", Map.of());
        assertVerdict(Verdict.INVALID, jump, "clock jump");
        assertTrue(jump.result().violationKinds().contains(AnomalyKind.DOUBLE_HOLDER));
        assertEquals(0, jump.faultsFailed());
        // the first grant races the kills: loaded CI runs found two holders here twice (2026-12-06 and -07), with a
        // second per instance too; the way it happens is a grant answered by 4 and 5 before they died while a SET on
        // 1, 2 or 3 outlived its timeout, so that the restarted, empty 4 and 5 leave the holder a minority: a second
        // majority by amnesia, not by the clock. Append-only instances come back with what they had acknowledged, so
        // the control is the clock's alone
        assertVerdict(Verdict.VALID, run("redis-clock-jump.json", Map.of("nemesis",
                "at 0ms kill node:4 for 3500ms; at 0ms kill node:5 for 3500ms", "redis_timeout_ms", "1000",
                "redis_appendonly", "true")), "the same kills, no jump");
    }

    @Test
    void theSeedsReleaseDeletesTheNextHoldersLockAndRedlocksCompareAndDeleteDoesNot() throws Exception {
        Runner.Outcome seed = run("redlock-tutorial-release.json", Map.of());
        if (seed.result().verdict() != Verdict.INVALID) {
            // the double holder needs the next holder to hold when the paused DEL lands (valid 4 of 4 times idle
            // here); beside three other test JVMs it was once valid with no anomaly at all: once more, printed
            System.out.println("redlock-tutorial-release: " + seed.result().verdict() + " (" + seed.faultsStarted()
                    + " fault(s) started); once more");
            seed = run("redlock-tutorial-release.json", Map.of());
        }
        assertVerdict(Verdict.INVALID, seed, "redlock-tutorial");
        assertTrue(seed.result().violationKinds().contains(AnomalyKind.DOUBLE_HOLDER));
        Runner.Outcome redlock = run("redlock-tutorial-release.json", Map.of("recipe", "redlock", "expect", "valid"));
        assertVerdict(Verdict.VALID, redlock, "redlock under the same schedule");
        assertEquals(1, redlock.faultsStarted(), "the pause happened");
    }

    /**
     * Holds longer than the lease, without any fault: the tutorial's caller learns no validity and writes on after its
     * lock expired (the next client is granted meanwhile); Redlock's holder stops when its validity (lease less
     * drift) runs out and releases before the instances expire the lock.
     */
    @Test
    void aHolderThatOutlastsItsLeaseOverlapsWithTheSeedAndStopsInTimeWithRedlock() throws Exception {
        // a 3 s lease gives a drift allowance of 32 ms: room for a busy machine's scheduling between the holder's
        // wake-up at the end of its validity and its release
        Map<String, String> longHolds = Map.of("hold_ms", "3500", "lease_ms", "3000", "clients", "3", "time_s", "5");
        Runner.Outcome seed = run("redis.json", with(longHolds, "recipe", "redlock-tutorial"));
        assertVerdict(Verdict.INVALID, seed, "redlock-tutorial");
        assertTrue(seed.result().violationKinds().contains(AnomalyKind.DOUBLE_HOLDER));
        assertVerdict(Verdict.VALID, run("redis.json", with(longHolds, "recipe", "redlock")), "redlock");
    }

    private static Map<String, String> with(Map<String, String> m, String key, String value) {
        Map<String, String> out = new java.util.HashMap<>(m);
        out.put(key, value);
        return out;
    }

    @ParameterizedTest
    @CsvSource({"redlock, 3", "redlock-tutorial, 3", "redis-single, 1", "redisson, 1", "redisson-fenced, 1"})
    void aFaultFreeRunIsValid(String recipe, String nodes) throws Exception {
        Runner.Outcome o = run("redis.json", Map.of("recipe", recipe, "nodes", nodes, "time_s", "2"));
        assertVerdict(Verdict.VALID, o, recipe);
        assertTrue(o.result().checked());
        assertTrue(((Number) o.throughput().get("grants")).longValue() > 10, "it granted: " + o.throughput());
    }

    /**
     * Every fault that carries over to Redis applies there, one after another in one run, and redlock stays valid
     * under each (a run per fault cost half a minute more of the suite).
     */
    @Test
    void eachFaultAppliesToRedisAndRedlockStaysValid() throws Exception {
        String nemesis = String.join("; ", List.of(
                "at 300ms isolate holder for 400ms",
                "at 1100ms kill random for 400ms",
                "at 1900ms pause minority for 400ms",
                "at 2700ms pause-client holder for 300ms",
                // within Redlock's drift allowance (1% of the 2 s lease + 2 ms): a bigger jump of one instance's
                // clock breaks Redlock by design, where a holder got two instances of three, the jumped one among
                // them (5 s: a double holder in 1 run of 20 of this schedule); redis-clock-jump.json shows that
                "at 3500ms clock-jump node:2 by_ms=10 for 400ms",
                "at 4300ms latency clients latency_ms=50 for 400ms",
                "at 5100ms bandwidth clients rate_kbs=1 for 400ms",
                "at 5900ms reset clients timeout_ms=5 for 400ms"));
        // a lease of 2 s, so that a second after the faults whatever they left has expired or is about to
        // each fault's proxies take a moment to set up and the schedule waits for a holder: room for that
        // 10 s for faults that end by 6.3 s: a busy machine once delayed one past an 8 s run (7 of 8 applied)
        Runner.Outcome o = run("redis.json", Map.of("nemesis", nemesis, "time_s", "10", "clients", "4",
                "lease_ms", "2000", "quiesce_ms", "1000"));
        assertEquals(8, o.faultsStarted(), "every fault applied: " + o.dir());
        assertEquals(0, o.faultsFailed());
        assertVerdict(Verdict.VALID, o, nemesis);
        String history = Files.readString(o.dir().resolve("history.jsonl"));
        for (String kind : List.of("isolate-client", "kill", "pause", "pause-client", "clock-jump", "latency",
                "bandwidth", "reset")) {
            assertTrue(history.contains("\"type\":\"ok\",\"process\":\"nemesis\"") && history.contains(
                    "\"fault\":\"" + kind + "\""), kind + " is in the history");
        }
    }
}
