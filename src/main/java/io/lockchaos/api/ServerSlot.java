package io.lockchaos.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where one of a lock's own servers ({@link LockServers}) runs: the address it must listen on for clients, the folder
 * it keeps its data in (the same after a kill), the addresses of every server of the run, the lock's classpath, for
 * a server whose main class is in the lock's own jar, and the workload's settings for the lock.
 *
 * @param id the server's number, 1 for the first
 * @param host the address to listen on: 127.0.0.1, or the server's network namespace's address
 * @param port the port to listen on for clients; lockchaos' proxies stand between it and every client
 * @param folder the server's own folder in the run's store, kept across kills (a server that keeps its state on disk
 *     finds it there again after a restart)
 * @param peers every server's {@code host:port} in order, this one's too: for servers that join each other directly
 * @param classpath the lock's classpath ({@code --lock-jar}), absolute, entries as given ({@code dir/*} stays)
 * @param settings the workload's {@code lock_settings}, as {@link LockContext#settings} gives them to clients: one
 *     factory's servers can start in more than one way
 */
public record ServerSlot(int id, String host, int port, Path folder, List<String> peers, List<String> classpath,
                         Map<String, String> settings) {
    public ServerSlot {
        peers = List.copyOf(peers);
        classpath = List.copyOf(classpath);
        settings = Map.copyOf(settings);
        if (id < 1) {
            throw new IllegalArgumentException("a server's id starts at 1, got " + id);
        }
    }

    /** This server's {@code host:port}. */
    public String address() {
        return host + ":" + port;
    }

    /**
     * The argument array that runs {@code mainClass} from the lock's classpath in a JVM of the runner's Java (128 MB
     * of heap), with {@code programArguments} after the class name: a server written in Java, shipped in the lock's
     * jar.
     */
    public List<String> java(String mainClass, String... programArguments) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                String.join(java.io.File.pathSeparator, classpath), mainClass));
        cmd.addAll(List.of(programArguments));
        return List.copyOf(cmd);
    }
}
