package io.lockchaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users' leased locks, through the Scenario API in client agents: a lease judged on a client's wall clock under
 * clock faults on one client's agent, and an etcd lock that never looks at its lease cut off from its members. (A
 * class of its own so that the slow tier's forks share these minutes with {@link UserLockTest}'s.)
 */
@Tag("slow") // starts servers, agents, containers or child processes
class UserLeaseTest {
    @TempDir
    Path store;

    /**
     * Client clock faults: the holder's agent runs under the clock-shift library, and its wall clock jumps a minute
     * back. A lease its holder judges on the wall clock then outlives the lease the others see expire (a double
     * holder; without the jump the same lease is valid); the same lease kept on monotonic clocks does not notice.
     */
    @Test
    void aJumpOfTheHoldersClockFoolsALeaseJudgedOnTheWallClockOnly() throws Exception {
        String jump = "at 500ms clock-jump holder by_ms=-60000 for 3s";
        List<List<Object>> cases = List.of(List.of("WallClockLease", jump, Verdict.INVALID),
                List.of("WallClockLease", "", Verdict.VALID), List.of("MonotonicLease", jump, Verdict.VALID));
        for (List<Object> c : cases) {
            ScenarioResult r = Scenario.builder().name("client-clock").clients(3).time(Duration.ofSeconds(4))
                    .hold(Duration.ofMillis(2500)).set("lease_ms", 1000)
                    .lock("io.lockchaos.api.testlocks." + c.get(0), UserLockTest.classpathOnCurator550())
                    .nemesis((String) c.get(1)).store(store).run();
            assertEquals(c.get(2), r.verdict(), c + ": see " + r.dir());
            String history = java.nio.file.Files.readString(io.lockchaos.store.RunDir.of(r.dir()).history());
            assertEquals(!c.get(1).equals(""), history.contains("\"fault\":\"clock-jump\",\"target\":\"holder\","
                    + "\"process\":"), "the jump moved the holder's clock: see " + r.dir());
        }
    }

    /** The test tree's classes and this JVM's PostgreSQL driver, where PostgreSQL runs here (else the test skips). */
    private static List<Path> pgLeaseClasspath() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.lockchaos.pg.PgServers.findBinaries() != null,
                io.lockchaos.pg.PgServers.MISSING);
        Path driver = Path.of(org.postgresql.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return List.of(UserLockTest.TEST_CLASSES, driver);
    }

    /**
     * The database lease judged on the client's clock: a waiter's agent's wall clock jumps a minute ahead, so by its
     * clock the holder's row has expired and it takes the row while the holder, whose clock is true, still holds it
     * (ShedLock's JDBC lock without {@code usingDbTime()} does the same): a double holder, whose explanation names the
     * moved clock. The user's classpath brings its own PostgreSQL driver.
     */
    @Test
    void aDatabaseLeaseJudgedOnTheClientsClockFailsWhenAWaitersClockRunsAhead() throws Exception {
        List<Path> classpath = pgLeaseClasspath();
        ScenarioResult r = Scenario.builder().name("pg-client-clock").nodes(1).clients(3).time(Duration.ofSeconds(4))
                .hold(Duration.ofMillis(2500)).set("lease_ms", 1000)
                .lock("io.lockchaos.api.testlocks.PgWallClockLease", classpath)
                .nemesis("at 500ms clock-jump waiter by_ms=60000 for 3s").store(store).run();
        assertEquals(Verdict.INVALID, r.verdict(), "see " + r.dir());
        assertTrue(r.spec().recipe().postgres(), "it ran on PostgreSQL");
        io.lockchaos.checker.Anomaly overlap = r.anomalies().stream()
                .filter(a -> a.kind() == io.lockchaos.checker.AnomalyKind.DOUBLE_HOLDER).findFirst().orElseThrow();
        assertTrue(String.valueOf(overlap.details().get("client_clock")).matches(
                "clock-jump of process \\d+'s clock by 60000 ms"), overlap.explanation());
    }

    /**
     * The leak checker sees a lock kept in a table of the user's own through its factory's inspect: the database lease
     * with the settings {@code forever} (rows taken for good) and {@code skip_release} (a release that forgets the
     * row and, like ShedLock's unlock, says nothing of it: {@code held: unknown}) leaves its row behind, which
     * the service's own inspection (advisory locks, lockchaos' lease table) would not see. The inspection is the
     * lock's own, so the row is named as the lock names it.
     */
    @Test
    void aLockKeptInTheUsersOwnTableIsInspectedByItsFactory() throws Exception {
        List<Path> classpath = pgLeaseClasspath();
        ScenarioResult r = Scenario.builder().name("pg-user-leak").nodes(1).clients(2).time(Duration.ofSeconds(3))
                .hold(Duration.ofMillis(300)).acquireTimeout(Duration.ofSeconds(1)).set("lease_ms", 1000)
                .set("lock_settings", "{\"forever\": true, \"skip_release\": true}")
                .lock("io.lockchaos.api.testlocks.PgWallClockLease", classpath)
                .store(store).run();
        assertEquals(Verdict.INVALID, r.verdict(), "see " + r.dir());
        assertTrue(r.violations().contains(io.lockchaos.checker.AnomalyKind.ORPHAN_NODE), r.violations() + ": see "
                + r.dir());
        String history = java.nio.file.Files.readString(io.lockchaos.store.RunDir.of(r.dir()).history());
        assertTrue(history.contains("\"node\":\"user_lease:"), "the lock's own inspection: see " + r.dir());
        assertTrue(history.contains("{\"held\":\"unknown\"}"), "a release that says nothing is recorded so: see "
                + r.dir());
    }

    /**
     * A user's etcd lock as Jepsen's client wrote it (jetcd's keep-alive, no look at the lease) cut off from every
     * member for 5 s against a 2 s lease: etcd expires the lease and grants the lock to another while the cut-off
     * holder still holds it. Its classpath brings jetcd and what jetcd needs, from this JVM's.
     */
    @Test
    void anEtcdLockThatNeverLooksAtItsLeaseOverlapsWhenItsHolderIsCutOff() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.lockchaos.etcd.EtcdServers.findExecutable() != null,
                io.lockchaos.etcd.EtcdServers.MISSING);
        List<Path> cp = new ArrayList<>(List.of(UserLockTest.TEST_CLASSES));
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (Path.of(e).getFileName().toString().matches("(jetcd|grpc|netty|vertx|guava|failureaccess|protobuf"
                    + "|proto-google|perfmark|failsafe|jackson-core|checker-qual|javax.annotation|slf4j-api).*\\.jar")) {
                cp.add(Path.of(e));
            }
        }
        ScenarioResult r = Scenario.builder().name("etcd-user").nodes(3).clients(3).time(Duration.ofSeconds(8))
                .hold(Duration.ofMillis(4000)).acquireTimeout(Duration.ofSeconds(8)).set("lease_ms", 2000)
                .lock("io.lockchaos.api.testlocks.EtcdIgnoringLease", cp)
                .nemesis("at 500ms isolate-client holder for 5s").store(store).run();
        assertTrue(r.spec().recipe().etcd(), "it ran on etcd");
        assertEquals(Verdict.INVALID, r.verdict(), "see " + r.dir());
        assertTrue(r.violations().contains(io.lockchaos.checker.AnomalyKind.DOUBLE_HOLDER), "see " + r.dir());
    }
}
