package io.lockchaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The wall clocks of a set of servers that run under the clock-shift library ({@link ClockShiftLibrary}): where each
 * server's library and offset file are, and the offset last set on each. One per cluster that is {@link
 * ClockShiftable}, so ZooKeeper, Redis and PostgreSQL servers move their clocks the same way.
 */
public final class ServerClocks {
    private final String servers;
    /** Each server's copy of the library, by node id; empty when the servers run on the machine's clock. */
    private final Map<Integer, Path> libraries;
    private final Function<ServerNode, Path> offsetFile;
    private final Map<Integer, Long> offsets = new ConcurrentHashMap<>();
    /** Stores an offset where the server's library reads it: a file here, or one on the server's host. */
    private final OffsetWriter writer;

    /** Stores server {@code n}'s offset where its library has mapped it. */
    @FunctionalInterface
    public interface OffsetWriter {
        void write(ServerNode n, long offsetMillis) throws IOException;
    }

    /**
     * @param servers what the servers are, for the one line that says their clocks cannot move ("these Redis
     *     instances")
     * @param libraries the library each server loads, by node id; empty for the machine's clock
     * @param offsetFile each server's offset file, readable by the user the server runs as
     */
    public ServerClocks(String servers, Map<Integer, Path> libraries, Function<ServerNode, Path> offsetFile) {
        this.servers = servers;
        this.libraries = Map.copyOf(libraries);
        this.offsetFile = offsetFile;
        this.writer = (n, ms) -> ClockShiftLibrary.writeOffset(offsetFile.apply(n), ms);
    }

    /**
     * Servers on other hosts, whose libraries and offset files are there ({@code movable}: whether they load the
     * library); {@code writer} stores an offset on a server's host.
     */
    public ServerClocks(String servers, java.util.List<ServerNode> nodes, boolean movable, OffsetWriter writer) {
        this.servers = servers;
        Map<Integer, Path> libraries = new java.util.LinkedHashMap<>();
        if (movable) {
            nodes.forEach(n -> libraries.put(n.id(), Path.of("on-its-host")));
        }
        this.libraries = Map.copyOf(libraries);
        this.offsetFile = n -> null;
        this.writer = writer;
    }

    /**
     * Servers that all load one copy of the library ({@code library}; null: the machine's clock), each with its own
     * offset file.
     */
    public static ServerClocks shared(String servers, java.util.List<ServerNode> nodes, Path library,
                                      Function<ServerNode, Path> offsetFile) {
        Map<Integer, Path> libraries = new java.util.LinkedHashMap<>();
        if (library != null) {
            nodes.forEach(n -> libraries.put(n.id(), library));
        }
        return new ServerClocks(servers, libraries, offsetFile);
    }

    /** Servers on the machine's clock. */
    public static ServerClocks fixed(String servers) {
        return new ServerClocks(servers, Map.of(), n -> null);
    }

    /** Whether the servers run under the library. */
    public boolean movable() {
        return !libraries.isEmpty();
    }

    /** Sets a server's offset to 0 before it first starts (the library maps the file as it loads). */
    public void reset(ServerNode n) throws IOException {
        if (movable()) {
            write(n, 0);
        }
    }

    /** Puts the library and the server's offset file into the environment of the process that starts it. */
    public void environment(ServerNode n, ProcessBuilder pb) {
        Path lib = libraries.get(n.id());
        if (lib != null) {
            pb.environment().put("LD_PRELOAD", lib.toString());
            pb.environment().put("LOCKCHAOS_CLOCK_FILE", offsetFile.apply(n).toString());
        }
    }

    /** Moves a server's wall clock; see {@link ClockShiftable#shiftClock}. */
    public void shift(ServerNode n, long offsetMillis) {
        if (!movable()) {
            throw new IllegalStateException(servers + " run on the machine's clock (no clock shift)");
        }
        try {
            write(n, offsetMillis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The offset last set on a server; see {@link ClockShiftable#clockOffset}. */
    public long offset(ServerNode n) {
        return offsets.getOrDefault(n.id(), 0L);
    }

    private void write(ServerNode n, long offsetMillis) throws IOException {
        writer.write(n, offsetMillis);
        offsets.put(n.id(), offsetMillis);
    }
}
