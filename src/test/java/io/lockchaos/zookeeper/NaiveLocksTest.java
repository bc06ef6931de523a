package io.lockchaos.zookeeper;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.checker.Verdict;
import io.lockchaos.client.LockWorker;
import io.lockchaos.client.Recorder;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tutorial's naive locks on a real ensemble, without faults: the checkers find their defects. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class NaiveLocksTest {
    @TempDir
    Path dir;

    private static ZooKeeper connect(String connect) throws Exception {
        return io.lockchaos.zookeeper.ZooKeepers.connect(connect, 4000, java.time.Duration.ofSeconds(20));
    }

    private static boolean has(CheckResult r, AnomalyKind k) {
        for (Anomaly a : r.allAnomalies()) {
            if (a.kind() == k) {
                return true;
            }
        }
        return false;
    }

    @Test
    void readersPassAHoldingWriterBecauseOfTheNameSort() throws Exception {
        Path file = dir.resolve("history.jsonl");
        List<ZooKeeper> sessions = new ArrayList<>();
        try (LocalEnsemble ens = LocalEnsemble.builder(dir.resolve("zk")).size(1).build();
             HistoryWriter w = HistoryWriter.create(file)) {
            ens.start();
            ens.awaitHealthy(Duration.ofSeconds(60));
            ZooKeeper admin = connect(ens.connectString());
            admin.create("/locks", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            admin.create("/locks/read-write", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            sessions.add(admin);
            Recorder rec = new Recorder(w);
            int workers = 4;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                boolean read = i % 2 == 1;
                LockWorker worker = new LockWorker(rec, "/locks/read-write", i, workers, p -> {
                    try {
                        ZooKeeper zk = connect(ens.connectString());
                        synchronized (sessions) {
                            sessions.add(zk);
                        }
                        return new NaiveReadWriteLock(zk, "/locks/read-write", "res", read);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, Duration.ofMillis(300), Duration.ofMillis(30), deadline).mode(read ? "read" : "write");
                Thread t = new Thread(worker);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            for (ZooKeeper zk : sessions) {
                zk.close();
            }
        }
        History h = JsonlHistoryReader.read(file);
        CheckResult r = Checkers.forRecipe(Recipe.READ_WRITE).check(h);
        assertEquals(Verdict.INVALID, r.verdict());
        assertTrue(has(r, AnomalyKind.RW_CONFLICT), r.allAnomalies().toString());
    }

    @Test
    void aTimedOutAcquireLeaksItsNode() throws Exception {
        Path file = dir.resolve("history.jsonl");
        try (LocalEnsemble ens = LocalEnsemble.builder(dir.resolve("zk")).size(1).build();
             HistoryWriter w = HistoryWriter.create(file)) {
            ens.start();
            ens.awaitHealthy(Duration.ofSeconds(60));
            ZooKeeper za = connect(ens.connectString());
            ZooKeeper zb = connect(ens.connectString());
            ZooKeeper zc = connect(ens.connectString());
            za.create("/locks", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            za.create("/locks/exclusive", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            Recorder rec = new Recorder(w);
            String key = "/locks/exclusive";
            NaiveExclusiveLock a = new NaiveExclusiveLock(za, key, "res");
            NaiveExclusiveLock b = new NaiveExclusiveLock(zb, key, "res");
            NaiveExclusiveLock c = new NaiveExclusiveLock(zc, key, "res");
            step(rec, 0, a, Duration.ofSeconds(1));
            step(rec, 1, b, Duration.ofMillis(200)); // times out behind a, leaving its node
            Op rel = rec.invoke(0, Fn.RELEASE, key, null);
            rec.complete(rel, a.release() ? OpType.OK : OpType.FAIL, null, null);
            Op heal = rec.invoke(Op.NEMESIS, Fn.HEAL, null, null);
            rec.complete(heal, OpType.OK, null, null);
            step(rec, 2, c, Duration.ofMillis(500)); // nobody holds the lock, yet c cannot get it
            for (ZooKeeper zk : List.of(za, zb, zc)) {
                zk.close();
            }
        }
        History h = JsonlHistoryReader.read(file);
        CheckResult r = Checkers.forRecipe(Recipe.MUTEX).check(h);
        assertEquals(Verdict.INVALID, r.verdict(), r.allAnomalies().toString());
        assertTrue(has(r, AnomalyKind.LEAKED_LOCK), r.allAnomalies().toString());
    }

    private static void step(Recorder rec, int process, LockClient lock, Duration timeout) throws Exception {
        Op acq = rec.invoke(process, Fn.ACQUIRE, "/locks/exclusive", java.util.Map.of("timeout_ms",
                timeout.toMillis()));
        Grant g = lock.acquire(timeout);
        rec.complete(acq, g == null ? OpType.FAIL : OpType.OK, g == null ? null : g.toValue(),
                g == null ? "timeout" : null);
    }
}
