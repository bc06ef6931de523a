package io.lockchaos.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Folders under the system's temporary folder that hold what servers write and nobody reads after the run (etcd
 * preallocates 64 MB of write-ahead log per member: a hundred runs kept in the store would fill a disk). Each records
 * its runner ({@link RunnerIdentity}); its owner deletes it on close, and a folder whose runner is certainly gone (a
 * SIGKILLed one) is deleted by the next {@link #create} of the same prefix, like the container and namespace sweeps.
 */
public final class ScratchFolders {
    private static final String OWNER = "lockchaos-owner";

    private ScratchFolders() {
    }

    /** Sweeps folders of {@code prefix} left by runners that are gone, then makes one for this runner. */
    public static Path create(String prefix) throws IOException {
        sweep(prefix);
        Path dir = Files.createTempDirectory(prefix);
        Files.writeString(dir.resolve(OWNER), RunnerIdentity.current() + "\n", StandardCharsets.UTF_8);
        return dir;
    }

    /** Deletes every folder of {@code prefix} whose runner is certainly gone; returns how many. */
    public static int sweep(String prefix) throws IOException {
        int swept = 0;
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> s = Files.newDirectoryStream(tmp, prefix + "*")) {
            for (Path dir : s) {
                String owner;
                try {
                    owner = Files.readString(dir.resolve(OWNER), StandardCharsets.UTF_8).strip();
                } catch (IOException e) {
                    continue; // being made, or not ours
                }
                if (RunnerIdentity.gone(owner)) {
                    delete(dir);
                    swept++;
                }
            }
        }
        return swept;
    }

    /** Deletes a folder and everything in it; what cannot be deleted now is left to the next sweep. */
    public static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                if (!p.equals(dir) && !p.equals(dir.resolve(OWNER))) {
                    Files.deleteIfExists(p);
                }
            }
            // the owner file last: a folder half deleted is still recognised by the next sweep
            Files.deleteIfExists(dir.resolve(OWNER));
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // left for the next sweep
        }
    }
}
