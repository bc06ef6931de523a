package io.lockchaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lockchaos.client.ClientRegistry;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code data} and {@code data:N} name the protected data's servers, never the lock's, though both number theirs from
 * 1: a kill, a pause and their undoing reach the servers they named, also when the run's final heal undoes them.
 */
class DataServerTargetsTest {
    /** Servers that record what was done to them, as "kill 1", "restart 1", "pause 2", "resume 2". */
    private static final class Recording implements Cluster, Killable, Pausable {
        final List<String> done = new ArrayList<>();
        private final List<ServerNode> nodes = new ArrayList<>();

        Recording(int firstPort, int size) {
            for (int id = 1; id <= size; id++) {
                nodes.add(new ServerNode(id, "127.0.0.1", firstPort + id, -1, -1, null, null));
            }
        }

        @Override
        public void start() {
        }

        @Override
        public void awaitHealthy(Duration timeout) {
        }

        @Override
        public List<ServerNode> nodes() {
            return nodes;
        }

        @Override
        public void close() {
        }

        @Override
        public void kill(ServerNode node) {
            done.add("kill " + node.id());
        }

        @Override
        public void restart(ServerNode node) {
            done.add("restart " + node.id());
        }

        @Override
        public void pause(ServerNode node) {
            done.add("pause " + node.id());
        }

        @Override
        public void resume(ServerNode node) {
            done.add("resume " + node.id());
        }
    }

    private static Fault fault(FaultKind kind, String target) {
        return new Fault(kind, target, Map.of());
    }

    @Test
    void dataTargetsReachTheDatasServersAndTheHealUndoesEachWhereItWasDone() throws Exception {
        Recording lock = new Recording(10_000, 3);
        Recording data = new Recording(20_000, 2);
        NemesisContext ctx = new NemesisContext(lock, new ClientRegistry(0), null, 2000, new SplittableRandom(1))
                .withData(data);
        assertEquals(data.nodes(), ctx.servers("data"));
        assertEquals(List.of(data.nodes().get(1)), ctx.servers("data:2"));
        assertEquals(List.of(lock.nodes().get(1)), ctx.servers("node:2"));

        ServerNemesis nemesis = new ServerNemesis();
        Nemesis.Started killed = nemesis.start(fault(FaultKind.KILL, "data:1"), 1000, ctx);
        assertEquals(List.of(1), killed.value().get("nodes"));
        nemesis.start(fault(FaultKind.PAUSE, "node:1"), 1000, ctx);
        nemesis.start(fault(FaultKind.PAUSE, "data:2"), 1000, ctx);
        killed.stopper().stop();
        assertEquals(List.of("kill 1", "pause 2", "restart 1"), data.done);
        assertEquals(List.of("pause 1"), lock.done);
        nemesis.heal(ctx); // the two pauses still in force, each resumed on its own servers
        assertEquals(List.of("kill 1", "pause 2", "restart 1", "resume 2"), data.done);
        assertEquals(List.of("pause 1", "resume 1"), lock.done);
    }

    @Test
    void aRunWithoutDataInADatabaseSaysSoWhenADataTargetIsNamed() {
        NemesisContext ctx = new NemesisContext(new Recording(10_000, 1), new ClientRegistry(0), null, 2000,
                new SplittableRandom(1));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new ServerNemesis().start(fault(FaultKind.KILL, "data"), 1000, ctx));
        assertEquals("no protected data in a database in this run (protected_data)", e.getMessage());
    }
}
