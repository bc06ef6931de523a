package io.lockchaos.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** A port is handed out once across the runners of a machine; a dead runner's ports are taken over. */
class PortReservationsTest {
    @Test
    void aPortHeldByALiveRunnerIsRefusedAndADeadOnesIsTakenOver() throws Exception {
        int held = 9_001;
        int orphaned = 9_002;
        Files.createDirectories(PortReservations.DIR);
        // held by a live process that is not this JVM: our parent (Maven's) is alive while the test runs
        long parent = ProcessHandle.current().parent().orElseThrow().pid();
        Files.writeString(PortReservations.DIR.resolve(Integer.toString(held)), Long.toString(parent));
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Files.writeString(PortReservations.DIR.resolve(Integer.toString(orphaned)), Long.toString(dead.pid()));
        try {
            assertFalse(PortReservations.reserve(held), "a live runner's port");
            assertTrue(PortReservations.reserve(orphaned), "a dead runner's port is taken over");
            assertEquals(Long.toString(ProcessHandle.current().pid()),
                    Files.readString(PortReservations.DIR.resolve(Integer.toString(orphaned))));
            assertFalse(PortReservations.reserve(orphaned), "and then it is this JVM's: not handed out twice");
        } finally {
            Files.deleteIfExists(PortReservations.DIR.resolve(Integer.toString(held)));
            Files.deleteIfExists(PortReservations.DIR.resolve(Integer.toString(orphaned)));
        }
    }
}
