package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static io.lockchaos.cluster.ServerClockProbe.minutesAhead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class LocalEnsembleTest {
    @TempDir
    Path dir;

    private static ZooKeeper connect(String connect) throws Exception {
        return io.lockchaos.zookeeper.ZooKeepers.connect(connect, 4000, java.time.Duration.ofSeconds(20));
    }

    private static ServerNode awaitLeader(LocalEnsemble e, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ServerNode> l = e.leader();
            if (l.isPresent()) {
                return l.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no leader after " + timeout);
    }

    @Test
    void threeServersElectALeaderAndElectAnotherWhenItIsKilled() throws Exception {
        try (LocalEnsemble e = LocalEnsemble.builder(dir).size(3).build()) {
            long t0 = System.nanoTime();
            e.start();
            e.awaitHealthy(Duration.ofSeconds(60));
            System.out.printf("3-node ensemble healthy in %.2f s%n", (System.nanoTime() - t0) / 1e9);
            for (ServerNode n : e.nodes()) {
                assertEquals("127.0.0.1", n.host());
            }
            ZooKeeper zk = connect(e.connectString());
            zk.create("/probe", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();
            ServerNode leader = e.leader().orElseThrow();
            e.kill(leader);
            ServerNode next = awaitLeader(e, Duration.ofSeconds(30));
            assertNotEquals(leader.id(), next.id());
            e.restart(leader);
            e.awaitHealthy(Duration.ofSeconds(60));
            ZooKeeper again = connect(leader.clientAddress());
            assertTrue(again.exists("/probe", false) != null, "data survived the kill");
            again.close();
        }
    }

    @Test
    void aPausedServerStopsAnsweringAndResumes() throws Exception {
        try (LocalEnsemble e = LocalEnsemble.builder(dir).size(1).build()) {
            e.start();
            e.awaitHealthy(Duration.ofSeconds(60));
            ServerNode n = e.nodes().get(0);
            assertEquals(Optional.of("standalone"), FourLetterWords.mode(n, 1000));
            e.pause(n);
            assertEquals(Optional.empty(), FourLetterWords.mode(n, 500), "a SIGSTOPped server does not answer");
            e.resume(n);
            e.awaitHealthy(Duration.ofSeconds(10));
        }
    }

    /**
     * The clock-jump nemesis' mechanism on ZooKeeper: a node's ctime is the server's wall clock
     * (System.currentTimeMillis), so it follows the jump while the session, timed on the monotonic clock, lives on.
     */
    @Test
    void aShiftedServerStampsNodesWithItsJumpedClockAndKeepsItsSessions() throws Exception {
        try (LocalEnsemble e = LocalEnsemble.builder(dir).size(1).clockShift(true).build()) {
            e.start();
            e.awaitHealthy(Duration.ofSeconds(60));
            ServerNode n = e.nodes().get(0);
            ZooKeeper zk = connect(e.connectString());
            try {
                assertEquals(0, minutesAhead(zk, "/before"), "on the machine's clock at first");
                e.shiftClock(n, 3_600_000);
                assertEquals(3_600_000L, e.clockOffset(n));
                assertEquals(60, minutesAhead(zk, "/during"), "a node made after the jump is stamped an hour ahead");
                assertEquals(ZooKeeper.States.CONNECTED, zk.getState(), "the session did not expire");
                e.shiftClock(n, -3_600_000);
                assertEquals(-60, minutesAhead(zk, "/behind"), "and an hour behind");
                e.shiftClock(n, 0);
                assertEquals(0, minutesAhead(zk, "/after"), "back to the machine's time");
            } finally {
                zk.close();
            }
        }
        try (LocalEnsemble plain = LocalEnsemble.builder(dir.resolve("plain")).size(1).build()) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> plain.shiftClock(plain.nodes().get(0), 1000), "servers on the machine's clock say so");
        }
    }


    @Test
    void closeEndsEveryServerEvenAPausedOne() throws Exception {
        LocalEnsemble e = LocalEnsemble.builder(dir).size(1).build();
        e.start();
        e.awaitHealthy(Duration.ofSeconds(60));
        long pid = e.pid(e.nodes().get(0));
        e.pause(e.nodes().get(0));
        e.close();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server " + pid + " gone");
    }

    /** Started in its own JVM by the test below: starts a server, prints its pid, then waits to be killed. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            LocalEnsemble e = LocalEnsemble.builder(Path.of(args[0])).size(1).build();
            e.start();
            e.awaitHealthy(Duration.ofSeconds(60));
            System.out.println("PID " + e.pid(e.nodes().get(0)));
            System.out.flush();
            Thread.sleep(120_000);
        }
    }

    @Test
    void serversDieWithTheirParentEvenAfterSigkill() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                Holder.class.getName(), dir.toString())).redirectErrorStream(true).start();
        long child = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("PID ")) {
                    child = Long.parseLong(line.substring(4).trim());
                    break;
                }
            }
            assertTrue(child > 0, "the holder reported its server");
            assertTrue(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false));
            holder.destroyForcibly(); // SIGKILL: no shutdown hook runs
            holder.waitFor(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false)
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false),
                    "server " + child + " outlived its SIGKILLed parent");
        } finally {
            holder.destroyForcibly();
            if (child > 0) {
                ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
