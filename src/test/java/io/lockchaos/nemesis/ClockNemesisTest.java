package io.lockchaos.nemesis;

import io.lockchaos.client.ClientRegistry;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.zookeeper.LocalEnsemble;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static io.lockchaos.cluster.ServerClockProbe.minutesAhead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Clock faults on a real server: what a node's ctime (the server's wall clock) reads while they run and after. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class ClockNemesisTest {
    @TempDir
    Path dir;

    @Test
    void aStrobeFlipsTheClockUntilItStopsAndAHealLeavesItTrue() throws Exception {
        try (LocalEnsemble e = LocalEnsemble.builder(dir).size(1).clockShift(true).build()) {
            e.start();
            e.awaitHealthy(Duration.ofSeconds(60));
            ServerNode n = e.nodes().get(0);
            NemesisContext ctx = new NemesisContext(e, new ClientRegistry(0), null, 2000, new SplittableRandom(1));
            ClockNemesis clocks = new ClockNemesis();
            ZooKeeper zk = io.lockchaos.zookeeper.ZooKeepers.connect(e.connectString(), 4000, Duration.ofSeconds(20));
            try {
                Nemesis.Started s = clocks.start(new Fault(FaultKind.CLOCK_STROBE, "node:1",
                        Map.of("by_ms", 3_600_000L, "period_ms", 50L)), 2000, ctx);
                assertEquals(50L, s.value().get("period_ms"));
                Set<Long> seen = new TreeSet<>();
                for (int i = 0; i < 40; i++) {
                    seen.add(minutesAhead(zk, "/strobe-" + i));
                    Thread.sleep(10);
                }
                assertEquals(Set.of(0L, 60L), seen, "the clock flipped between the machine's time and an hour ahead");
                s.stopper().stop();
                assertEquals(0, e.clockOffset(n));
                for (int i = 0; i < 10; i++) {
                    assertEquals(0L, minutesAhead(zk, "/after-" + i), "no flip after the strobe stopped");
                    Thread.sleep(20);
                }
                clocks.start(new Fault(FaultKind.CLOCK_STROBE, "all", Map.of("by_ms", -60_000L, "period_ms", 20L)),
                        2000, ctx);
                clocks.heal(ctx);
                Thread.sleep(100);
                assertEquals(0L, minutesAhead(zk, "/healed"), "the final heal stops a strobe still running");
                assertTrue(Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.getName().equals("lockchaos-clock-strobe")), "and its thread");
            } finally {
                zk.close();
            }
        }
    }
}
