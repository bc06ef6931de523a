package io.lockchaos.zookeeper;

import io.lockchaos.api.LockClient;
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
import io.lockchaos.history.OpType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every Curator recipe client must do on a healthy ensemble: several processes take turns and the recorded
 * history checks valid under the recipe's promises. One subclass per recipe supplies the client.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
abstract class LockClientContract {
    static final String PATH = "/contract";
    private static LocalEnsemble ensemble;
    private static Path dir;

    abstract LockClient client(CuratorFramework c, int worker);

    abstract Recipe recipe();

    /** The mode a worker records, for read/write locks. */
    String mode(int worker) {
        return null;
    }

    /** The keys a worker records, for multi-locks. */
    List<String> keys() {
        return null;
    }

    @BeforeAll
    static void startEnsemble() throws Exception {
        dir = Files.createTempDirectory("lockchaos-contract");
        ensemble = LocalEnsemble.builder(dir).size(1).build();
        ensemble.start();
        ensemble.awaitHealthy(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopEnsemble() throws Exception {
        ensemble.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    @Test
    void processesTakeTurnsAndTheHistoryIsValid() throws Exception {
        Path file = Files.createTempFile(dir, "history", ".jsonl");
        List<CuratorFramework> sessions = new ArrayList<>();
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Recorder rec = new Recorder(w);
            int workers = 4;
            // 6 s, not 2: on two cores with four test JVMs busy a 2 s round once made only 4 grants
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                int worker = i;
                LockWorker lw = new LockWorker(rec, PATH + "/" + getClass().getSimpleName(), i, workers, p -> {
                    CuratorFramework c = CuratorFrameworkFactory.newClient(ensemble.connectString(), 4000, 2000,
                            new RetryNTimes(3, 100));
                    c.start();
                    synchronized (sessions) {
                        sessions.add(c);
                    }
                    return client(c, worker);
                }, Duration.ofMillis(500), Duration.ofMillis(5), deadline).mode(mode(i));
                if (keys() != null) {
                    lw.keys(keys());
                }
                Thread t = new Thread(lw);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
        } finally {
            sessions.forEach(CuratorFramework::close);
        }
        History h = JsonlHistoryReader.read(file);
        long grants = h.ops().stream().filter(o -> o.f() == Fn.ACQUIRE && o.type() == OpType.OK).count();
        assertTrue(grants >= 8, "grants: " + grants);
        for (io.lockchaos.history.Op g : h.ops()) {
            if (g.f() == Fn.ACQUIRE && g.type() == OpType.OK) {
                // every grant tells the truth about the node it was made on: its czxid and its ephemeral owner
                assertTrue(g.stringField("node") != null && g.longField("token", -1) > 0, g.toString());
                assertTrue(g.longField("owner", 0) != 0 && g.longField("owner", 0) == g.longField("session", -1),
                        g.toString());
            }
        }
        CheckResult r = Checkers.forRecipe(recipe()).check(h);
        assertEquals(Verdict.VALID, r.verdict(), () -> r.allAnomalies().toString());
    }
}

class InterProcessMutexContractTest extends LockClientContract {
    @Override
    LockClient client(CuratorFramework c, int worker) {
        return new CuratorMutexClient(c, PATH + "/InterProcessMutexContractTest");
    }

    @Override
    Recipe recipe() {
        return Recipe.REENTRANT_MUTEX;
    }
}

class InterProcessSemaphoreMutexContractTest extends LockClientContract {
    @Override
    LockClient client(CuratorFramework c, int worker) {
        return CuratorLocks.semaphoreMutex(c, PATH + "/InterProcessSemaphoreMutexContractTest");
    }

    @Override
    Recipe recipe() {
        return Recipe.MUTEX;
    }
}

class InterProcessSemaphoreV2ContractTest extends LockClientContract {
    @Override
    LockClient client(CuratorFramework c, int worker) {
        return CuratorLocks.semaphore(c, PATH + "/InterProcessSemaphoreV2ContractTest", 2);
    }

    @Override
    Recipe recipe() {
        return Recipe.semaphore(2);
    }
}

class InterProcessReadWriteLockContractTest extends LockClientContract {
    @Override
    LockClient client(CuratorFramework c, int worker) {
        return CuratorLocks.readWrite(c, PATH + "/InterProcessReadWriteLockContractTest", worker % 2 == 1);
    }

    @Override
    String mode(int worker) {
        return worker % 2 == 1 ? "read" : "write";
    }

    @Override
    Recipe recipe() {
        return Recipe.READ_WRITE;
    }
}

class InterProcessMultiLockContractTest extends LockClientContract {
    private static final List<String> KEYS = List.of(PATH + "/multi-a", PATH + "/multi-b");

    @Override
    LockClient client(CuratorFramework c, int worker) {
        return CuratorLocks.multi(c, KEYS);
    }

    @Override
    List<String> keys() {
        return KEYS;
    }

    @Override
    Recipe recipe() {
        return Recipe.MULTI;
    }
}
