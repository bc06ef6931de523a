package io.lockchaos.cluster;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A port is handed out once across the runners of a machine; a dead runner's ports are taken over; the folder is one
 * user's own, and one planted by another user (a link, another owner, another mode) is refused.
 */
class PortReservationsTest {
    @Test
    void aPortHeldByALiveRunnerIsRefusedAndADeadOnesIsTakenOver() throws Exception {
        int held = 9_001;
        int orphaned = 9_002;
        PortReservations.privateFolder(PortReservations.DIR);
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
            int port = PortReservations.freePort();
            assertTrue(port >= 10_000 && port < low, port + " is below " + low);
            assertTrue(java.nio.file.Files.exists(PortReservations.DIR.resolve(Integer.toString(port))),
                    port + " is reserved for this runner");
        }
    }

    @TempDir
    Path tmp;

    @Test
    void theFolderIsThisUsersOwnAndMadePrivate() throws Exception {
        assertEquals("lockchaos-ports-" + PortReservations.uid(), PortReservations.DIR.getFileName().toString());
        Path fresh = tmp.resolve("fresh");
        assertTrue(PortReservations.reserve(fresh, 9_004));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh,
                LinkOption.NOFOLLOW_LINKS)));
        assertTrue(Files.isRegularFile(fresh.resolve("9004")));
    }

    @Test
    void aPlantedLinkIsRefusedAndNothingIsWrittenThroughIt() throws Exception {
        Path victim = Files.createDirectory(tmp.resolve("victim"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path planted = Files.createSymbolicLink(tmp.resolve("ports"), victim);
        EnvironmentProblem e = assertThrows(EnvironmentProblem.class, () -> PortReservations.reserve(planted, 9_005));
        assertEquals("port reservations: " + planted + " is a symbolic link; it must be a folder of this user's alone"
                + " (remove it and run again)", e.getMessage());
        try (var inside = Files.list(victim)) {
            assertEquals(0, inside.count(), "nothing written through the link");
        }
    }

    @Test
    void aFolderOpenToOthersOrOfAnotherOwnerIsRefused() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        EnvironmentProblem e = assertThrows(EnvironmentProblem.class, () -> PortReservations.reserve(open, 9_006));
        assertTrue(e.getMessage().startsWith("port reservations: " + open + " has mode rwxrwxrwx, not rwx------"),
                e.getMessage());
        assertFalse(Files.exists(open.resolve("9006")));
        Path file = Files.writeString(tmp.resolve("file"), "");
        e = assertThrows(EnvironmentProblem.class, () -> PortReservations.reserve(file, 9_006));
        assertTrue(e.getMessage().contains(file + " is not a folder"), e.getMessage());
        // another owner: only root can make a folder someone else's
        org.junit.jupiter.api.Assumptions.assumeTrue(PortReservations.uid() == 0, "not root");
        Path theirs = Files.createDirectory(tmp.resolve("theirs"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setAttribute(theirs, "unix:uid", 65_534, LinkOption.NOFOLLOW_LINKS);
        e = assertThrows(EnvironmentProblem.class, () -> PortReservations.reserve(theirs, 9_006));
        assertTrue(e.getMessage().contains(theirs + " is owned by "), e.getMessage());
        assertTrue(e.getMessage().contains("not by this user (uid 0)"), e.getMessage());
        assertFalse(Files.exists(theirs.resolve("9006")));
    }
}
