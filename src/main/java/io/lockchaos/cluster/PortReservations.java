package io.lockchaos.cluster;

import java.io.IOException;
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
 */
final class PortReservations {
    static final Path DIR = Path.of(System.getProperty("java.io.tmpdir"), "lockchaos-ports");
    private static final Set<Integer> MINE = ConcurrentHashMap.newKeySet();
    private static final long PID = ProcessHandle.current().pid();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(PortReservations::releaseAll, "lockchaos-port-release"));
    }

    private PortReservations() {
    }

    /** Whether this JVM now holds {@code port}: false when a live runner holds it. */
    static boolean reserve(int port) {
        try {
            Files.createDirectories(DIR);
            Path f = DIR.resolve(Integer.toString(port));
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
            return true; // no shared folder to be had: the bind check alone decides, as before
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
}
