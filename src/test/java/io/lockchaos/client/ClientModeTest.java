package io.lockchaos.client;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.zookeeper.CuratorMutexClient;
import io.lockchaos.zookeeper.LocalEnsemble;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A holder whose server is frozen (SIGSTOP) for longer than the client's read timeout sees SUSPENDED. A client that
 * stops on SUSPENDED gives up its critical section and releases early; a naive one holds for its whole hold time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class ClientModeTest {
    @TempDir
    Path dir;

    /** Returns the first grant's hold time in ms, until its release invocation, and whether its add completed ok. */
    private long[] holdWithFrozenServer(ClientMode mode) throws Exception {
        Path file = dir.resolve(mode.wireName() + ".jsonl");
        try (LocalEnsemble zk = LocalEnsemble.builder(dir.resolve("zk-" + mode.wireName())).size(1).build();
             HistoryWriter w = HistoryWriter.create(file)) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            Recorder rec = new Recorder(w);
            CuratorFramework c = CuratorFrameworkFactory.newClient(zk.connectString(), 2000, 2000,
                    new RetryNTimes(5, 200));
            LockWorker[] self = new LockWorker[1];
            c.getConnectionStateListenable().addListener((cf, st) -> {
                rec.state(self[0].process(), st.name(), 0);
                self[0].onState(st.name());
            });
            c.start();
            assertTrue(c.blockUntilConnected(20, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(7);
            self[0] = new LockWorker(rec, "/mode", 0, 1, p -> new CuratorMutexClient(c, "/mode"),
                    Duration.ofSeconds(2), Duration.ofMillis(5000), deadline)
                    .clientMode(mode).resources(new Resources("/mode"));
            Thread t = new Thread(self[0]);
            t.start();
            Thread.sleep(800); // the worker has its first grant and is inside its hold
            zk.pause(zk.nodes().get(0));
            Thread.sleep(1800); // past the 1.33 s read timeout (2/3 of the session), short of the 2 s session
            zk.resume(zk.nodes().get(0));
            t.join();
            c.close();
        }
        History h = JsonlHistoryReader.read(file);
        long grant = -1;
        long release = -1;
        long addOk = -1;
        for (Op op : h.ops()) {
            if (grant < 0 && op.f() == Fn.ACQUIRE && op.type() == OpType.OK) {
                grant = op.time();
            } else if (grant >= 0 && addOk < 0 && op.f() == Fn.ADD && op.type() != OpType.INVOKE) {
                addOk = op.type() == OpType.OK ? 1 : 0;
            } else if (grant >= 0 && op.f() == Fn.RELEASE && op.type() == OpType.INVOKE) {
                release = op.time();
                break;
            }
        }
        assertTrue(h.ops().stream().anyMatch(o -> o.f() == Fn.STATE && "SUSPENDED".equals(o.stringField("state"))),
                "the client saw SUSPENDED");
        return new long[] {(release - grant) / 1_000_000, addOk};
    }

    @Test
    void stopOnSuspendedReleasesEarlyAndSkipsTheWrite() throws Exception {
        long[] r = holdWithFrozenServer(ClientMode.STOP_ON_SUSPENDED);
        assertTrue(r[0] < 4000, "released after " + r[0] + " ms of a 5000 ms hold");
        assertEquals(0, r[1], "the write-back was abandoned");
    }

    @Test
    void aNaiveClientHoldsThroughSuspended() throws Exception {
        long[] r = holdWithFrozenServer(ClientMode.IGNORE);
        assertTrue(r[0] >= 5000, "held " + r[0] + " ms");
        assertEquals(1, r[1], "the naive client wrote anyway");
    }
}
