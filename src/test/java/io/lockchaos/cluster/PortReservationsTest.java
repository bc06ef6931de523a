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

    /** The ports servers get are below the kernel's ephemeral range and reserved: the range must be read whole. */
    @Test
    void serverPortsComeFromBelowTheEphemeralRangeAndAreReserved() throws Exception {
        java.nio.file.Path range = java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(range), "no " + range);
        String[] lowHigh = Sysctl.read(range).split("\\s+");
        assertEquals(2, lowHigh.length, "two numbers, as the kernel writes them");
        int low = Integer.parseInt(lowHigh[0]);
        org.junit.jupiter.api.Assumptions.assumeTrue(low > 12_000, "an ephemeral range from " + low);
        for (int i = 0; i < 20; i++) {
            int port = LocalEnsemble.freePort();
            assertTrue(port >= 10_000 && port < low, port + " is below " + low);
            assertTrue(java.nio.file.Files.exists(PortReservations.DIR.resolve(Integer.toString(port))),
                    port + " is reserved for this runner");
        }
    }
}
