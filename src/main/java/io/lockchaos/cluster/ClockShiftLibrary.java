package io.lockchaos.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Builds the clock-shift LD_PRELOAD library ({@code clockshift.c}, a resource of this package) with the machine's
 * gcc into the run's folder, and moves the clock of a server running under it. Built per run rather than shipped: it
 * must match the machine's C library, and it takes about a tenth of a second. A server started with {@code LD_PRELOAD}
 * naming the library and {@code LOCKCHAOS_CLOCK_FILE} naming its offset file (which must exist, readable by the
 * server's user) reads its wall clock that far ahead; forked children (PostgreSQL's backends) share the mapping.
 */
public final class ClockShiftLibrary {
    /** The one line that says what is missing and how to get it. */
    public static final String MISSING = "clock faults need gcc to build their clock-shift library"
            + " (Debian: apt-get install gcc)";

    private ClockShiftLibrary() {
    }

    /**
     * Rewrites the 8 bytes a server's library has mapped from {@code file} (created when missing): the server sees
     * the new offset at its next clock read.
     */
    public static void writeOffset(Path file, long offsetMillis) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            // one aligned 8-byte store into the shared page: the server never reads half an offset
            java.nio.MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8);
            b.order(ByteOrder.nativeOrder()).putLong(0, Math.multiplyExact(offsetMillis, 1_000_000L));
        }
    }

    /** Builds the library into {@code dir}; its path. */
    public static Path build(Path dir) throws IOException {
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
