package io.lockchaos.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports handed out by any runner on this machine, as files named after them in a shared folder: a port checked free
 * is handed out only by whoever creates its file first. Without this, two test JVMs of the slow tier now and then
 * picked the same port within the second or two before either server bound it; one server then died with "Address
 * already in use", or a client reached the other JVM's server. Each file holds its owner's pid: a runner deletes its
 * own at exit, and a file whose owner is gone (a SIGKILLed runner) is taken over.
 *
 * <p>The folder is shared by one user's runners only: {@code lockchaos-ports-UID} in the temporary folder, made mode
 * 0700 and checked before each use (a folder, not a link, this user's, mode 0700). A folder another local user planted
 * there (a link to a folder of theirs, or one they own) would let them read and steer where a run, often root's, writes
 * its files; it is refused in one line, and nothing is written through it.
 */
public final class PortReservations {
    static final Path DIR = Path.of(System.getProperty("java.io.tmpdir"), "lockchaos-ports-" + uid());
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> PRIVATE =
            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
    private static final Set<Integer> MINE = ConcurrentHashMap.newKeySet();
    private static final long PID = ProcessHandle.current().pid();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(PortReservations::releaseAll, "lockchaos-port-release"));
    }

    private PortReservations() {
    }

    /** This process's user id: the folder's name and its owner. */
    static int uid() {
        return (int) new com.sun.security.auth.module.UnixSystem().getUid();
    }

    /**
     * Makes {@code dir} (mode 0700) unless it exists, then checks what is there without following links: a folder of
     * this user's, mode 0700.
     *
     * @throws EnvironmentProblem saying what is wrong with which path, in one line
     */
    static void privateFolder(Path dir) {
        java.nio.file.LinkOption nofollow = java.nio.file.LinkOption.NOFOLLOW_LINKS;
        try {
            if (!Files.exists(dir, nofollow)) {
                try {
                    Files.createDirectory(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(PRIVATE));
                } catch (FileAlreadyExistsException raced) {
                    // another runner (or someone else) made it a moment ago: checked below like any other
                }
            }
            // checked after the creation too: what counts is what is there now, whoever made it
            var a = Files.readAttributes(dir, java.nio.file.attribute.PosixFileAttributes.class, nofollow);
            String wrong = null;
            if (a.isSymbolicLink()) {
                wrong = "is a symbolic link";
            } else if (!a.isDirectory()) {
                wrong = "is not a folder";
            } else if ((int) Files.getAttribute(dir, "unix:uid", nofollow) != uid()) {
                wrong = "is owned by " + a.owner().getName() + ", not by this user (uid " + uid() + ")";
            } else if (!a.permissions().equals(PRIVATE)) {
                wrong = "has mode " + java.nio.file.attribute.PosixFilePermissions.toString(a.permissions())
                        + ", not rwx------";
            }
            if (wrong != null) {
                throw new EnvironmentProblem("port reservations: " + dir + " " + wrong
                        + "; it must be a folder of this user's alone (remove it and run again)");
            }
        } catch (IOException e) {
            throw new EnvironmentProblem("port reservations: " + dir + ": " + e);
        }
    }

    /** Whether this JVM now holds {@code port}: false when a live runner holds it. */
    static boolean reserve(int port) {
        return reserve(DIR, port);
    }

    /** As {@link #reserve(int)}, in {@code dir}. */
    static boolean reserve(Path dir, int port) {
        privateFolder(dir);
        try {
            Path f = dir.resolve(Integer.toString(port));
            for (int attempt = 0; attempt < 2; attempt++) {
                try {
                    Files.writeString(Files.createFile(f), Long.toString(PID), StandardCharsets.US_ASCII);
                    MINE.add(port);
                    return true;
                } catch (FileAlreadyExistsException held) {
                    if (!stale(f)) {
                        return false;
                    }
                    Files.deleteIfExists(f); // its runner is gone: take it over
                }
            }
            return false;
        } catch (IOException e) {
            return true; // the checked folder cannot be written (full, read-only): the bind check alone decides
        }
    }

    /** A file whose pid is no live process (or that cannot be read once written). */
    private static boolean stale(Path f) {
        try {
            String pid = Files.readString(f, StandardCharsets.US_ASCII).trim();
            if (pid.isEmpty()) {
                // just created, its pid not yet written: held, unless it has stayed empty a while
                return System.currentTimeMillis() - Files.getLastModifiedTime(f).toMillis() > 10_000;
            }
            return ProcessHandle.of(Long.parseLong(pid)).map(p -> !p.isAlive()).orElse(true);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    private static void releaseAll() {
        for (int port : List.copyOf(MINE)) {
            try {
                Path f = DIR.resolve(Integer.toString(port));
                if (Long.toString(PID).equals(Files.readString(f, StandardCharsets.US_ASCII).trim())) {
                    Files.delete(f);
                }
            } catch (IOException | RuntimeException e) {
                // gone already, or another's now
            }
        }
    }

    /**
     * Ports this JVM has handed out: a port is free again once released, but a server may still be about to bind it.
     */
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A free loopback port below the kernel's ephemeral range. A port from the ephemeral range (what binding port 0
     * gives) can be taken, between this check and the server's bind, by any outgoing connection's local end, and a
     * run opens many: the server then dies with "Address already in use". Below the range only another listener can
     * take it, and this class keeps other runners on the machine (parallel test JVMs, runs started
     * together) from picking it between this check and that bind. Falls back to port 0 where the range cannot be read.
     */
    public static int freePort() throws IOException {
        int low = ephemeralLow();
        java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; low > 12_000 && attempt < 200; attempt++) {
            int port = r.nextInt(10_000, low);
            if (!HANDED_OUT.add(port)) {
                continue; // the set is the gate: two threads never get the same port
            }
            if (!reserve(port)) {
                continue; // another runner on this machine handed it out and may not have bound it yet
            }
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                return port;
            } catch (IOException taken) {
                // in use by another listener: try another (it stays marked, so it is not tried again here)
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The first port of the kernel's ephemeral range, or 0 where it cannot be read. */
    private static int ephemeralLow() {
        try {
            String range = Sysctl.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
