package io.lockchaos.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** The layout of stored runs under a root folder (histories/ by default). */
public final class Store {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");
    private final Path root;

    public Store(Path root) {
        this.root = root;
    }

    /**
     * Creates the folder of a new run of {@code test} and points {@code latest} at it. Two runs in the same second
     * get {@code -2}, {@code -3}... suffixes.
     */
    public Path newRun(String test) throws IOException {
        if (test.isBlank() || test.contains("/") || test.contains("\\") || test.startsWith(".")) {
            throw new IllegalArgumentException("name: '" + test + "' cannot be a folder name");
        }
        Path dir = root.resolve(test);
        Files.createDirectories(dir);
        String stamp = LocalDateTime.now().format(STAMP);
        Path run = dir.resolve(stamp);
        for (int i = 2; Files.exists(run); i++) {
            run = dir.resolve(stamp + "-" + i);
        }
        Files.createDirectory(run);
        Path latest = dir.resolve("latest");
        Files.deleteIfExists(latest);
        try {
            Files.createSymbolicLink(latest, run.getFileName());
        } catch (UnsupportedOperationException | IOException e) {
            Files.writeString(latest, run.getFileName().toString()); // file systems without links get a pointer file
        }
        return run;
    }
}
