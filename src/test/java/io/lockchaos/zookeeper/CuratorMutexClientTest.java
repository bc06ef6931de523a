package io.lockchaos.zookeeper;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.checker.Verdict;
import io.lockchaos.checker.linear.LinearizabilityChecker;
import io.lockchaos.checker.linear.Models;
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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real InterProcessMutex clients on a real ensemble, no faults: the recorded history must check valid. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class CuratorMutexClientTest {
    @TempDir
    Path dir;

    @Test
    void recordsAValidHistoryWithFencingTokensAndSessions() throws Exception {
        Path file = dir.resolve("history.jsonl");
        List<CuratorFramework> sessions = new ArrayList<>();
        try (LocalEnsemble zk = LocalEnsemble.builder(dir.resolve("zk")).size(1).build();
             HistoryWriter w = HistoryWriter.create(file)) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            Recorder rec = new Recorder(w);
            int workers = 4;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                Thread t = new Thread(new LockWorker(rec, "/lock", i, workers, p -> {
                    CuratorFramework c = CuratorFrameworkFactory.newClient(zk.connectString(), 4000, 2000,
                            new RetryNTimes(3, 100));
                    c.start();
                    synchronized (sessions) {
                        sessions.add(c);
                    }
                    return new CuratorMutexClient(c, "/lock");
                }, Duration.ofMillis(500), Duration.ofMillis(10), deadline));
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            sessions.forEach(CuratorFramework::close); // before the servers go, so no client sees them vanish
        }
        History h = JsonlHistoryReader.read(file);
        long grants = h.ops().stream().filter(o -> o.f() == Fn.ACQUIRE && o.type() == OpType.OK).count();
        assertTrue(grants > 20, "grants: " + grants);
        for (Op op : h.ops()) {
            if (op.f() == Fn.ACQUIRE && op.type() == OpType.OK) {
                assertTrue(op.longField("token", -1) > 0, "czxid recorded: " + op);
                assertEquals(op.longField("session", 0), op.longField("owner", -1), "own node: " + op);
                assertTrue(op.stringField("node").startsWith("/lock/"), op.toString());
            }
        }
        CheckResult r = Checkers.forRecipe(Recipe.REENTRANT_MUTEX).check(h);
        assertEquals(Verdict.VALID, r.verdict(), r.toString());
        assertEquals(Verdict.VALID, new LinearizabilityChecker(Models.reentrantMutex()).check(h).verdict());
    }
}
