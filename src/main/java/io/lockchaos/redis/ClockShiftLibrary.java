package io.lockchaos.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Builds the clock-shift LD_PRELOAD library ({@code clockshift.c}, a resource of this package) with the machine's
 * gcc into the run's folder. Built per run rather than shipped: it must match the machine's C library, and it takes
 * about a tenth of a second.
 */
final class ClockShiftLibrary {
    /** The one line that says what is missing and how to get it. */
    static final String MISSING = "clock faults on Redis need gcc to build their clock-shift library"
            + " (Debian: apt-get install gcc)";

    private ClockShiftLibrary() {
    }

    static Path build(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path source = dir.resolve("clockshift.c");
        Path library = dir.resolve("clockshift.so");
        try (InputStream in = ClockShiftLibrary.class.getResourceAsStream("clockshift.c")) {
            if (in == null) {
                throw new IOException("clockshift.c is missing from the lockchaos jar");
            }
            Files.write(source, in.readAllBytes());
        }
        Process p;
        try {
            p = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O2", "-Wno-nonnull-compare", "-o",
                    library.toString(), source.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException(MISSING);
        }
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("gcc could not build " + library + (out.isEmpty() ? "" : ": "
                        + out.lines().findFirst().orElse("")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while building " + library, e);
        }
        return library;
    }
}
