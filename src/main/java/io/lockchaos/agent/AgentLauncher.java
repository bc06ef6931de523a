package io.lockchaos.agent;

import io.lockchaos.client.UserLock;
import io.lockchaos.cluster.ClockShiftLibrary;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The client agents of one run: {@code count} child JVMs, each running {@link AgentMain} on Curator {@code version}'s
 * jars and this project's own classes, listening on 127.0.0.1. Clients are spread over them round robin. Any local
 * user may reach a loopback port, so each agent is given a secret of its own on standard input (a pipe only this
 * runner holds) and serves only connections that prove it, and the server endpoints it may dial are written to the
 * same pipe (see {@link AgentMain}). Every agent
 * dies with the runner: it is started through {@code setpriv --pdeathsig KILL} from one long-lived thread (where
 * setpriv exists), watches the runner's pid itself, and is killed by {@link #close} and by a shutdown hook.
 */
public final class AgentLauncher implements ClientAgents {
    /**
     * An agent's JVM flags, here and on SSH hosts. SerialGC: measured faster here than G1 for a JVM of many small
     * clients on 2 cores; C1 only, as the launcher's: the clients wait on the servers, not on compiled code. An agent
     * out of memory exits, so its runner sees the connections go instead of waiting on an answer that never comes.
     */
    public static final List<String> JVM_FLAGS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx512m",
            "-Xss512k", "-XX:-UsePerfData", "-XX:+ExitOnOutOfMemoryError", "-Dzookeeper.jmx.log4j.disable=true");

    /** One thread starts every agent and lives as long as the JVM: the parent-death signal follows the forking thread. */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "lockchaos-agent-spawner");
        t.setDaemon(true);
        return t;
    });

    /**
     * One started agent.
     *
     * @param process its process, a child of this JVM; null for an agent on another host
     * @param clockFile the offset file of the clock-shift library the agent runs under (writing it moves the agent's
     *     wall clock: see {@link io.lockchaos.cluster.ClockShiftLibrary}), or null when its clock cannot move
     * @param secret what a connection must prove (see {@link AgentMain})
     */
    public record Agent(Process process, InetSocketAddress address, String curator, String zookeeper,
                        Path clockFile, byte[] secret) {
    }

    private final List<Agent> agents;
    private final Thread shutdownHook;
    private final long startMillis;

    private AgentLauncher(List<Agent> agents, Thread hook, long startMillis) {
        this.agents = agents;
        this.shutdownHook = hook;
        this.startMillis = startMillis;
    }

    /**
     * Starts {@code count} agents on {@code curatorJars}, each logging to {@code logDir/agent-N.log}.
     *
     * @throws IOException when an agent does not start or does not say where it listens within 60 s
     */
    public static AgentLauncher start(List<Path> curatorJars, int count, Path logDir) throws IOException {
        return start(classpath(curatorJars), List.of(), count, logDir, null);
    }

    /**
     * As {@link #start(List, int, Path)}, each agent under the clock-shift library {@code clockLibrary} (null for
     * none) with an offset file of its own, {@code logDir/agent-N.clock}: client clock faults move it.
     */
    public static AgentLauncher start(List<Path> curatorJars, int count, Path logDir, Path clockLibrary)
            throws IOException {
        return start(classpath(curatorJars), List.of(), count, logDir, clockLibrary);
    }

    /**
     * Starts {@code count} agents serving the user's lock: its factory class loaded from the user's classpath (which
     * brings its own Curator, driver or whatever it needs) after this project's own classes and {@code curatorJars}
     * (empty, or a Curator version put ahead of the one the user's classpath brings: {@code matrix} on a user's lock).
     */
    public static AgentLauncher start(UserLock lock, List<Path> curatorJars, int count,
                                      Path logDir) throws IOException {
        return start(lock, curatorJars, count, logDir, null);
    }

    /** As {@link #start(io.lockchaos.client.UserLock, List, int, Path)}, under {@code clockLibrary} (or null). */
    public static AgentLauncher start(UserLock lock, List<Path> curatorJars, int count,
                                      Path logDir, Path clockLibrary) throws IOException {
        return start(userClasspath(curatorJars, lock.classpath()), List.of("--lock-class", lock.className()), count,
                logDir, clockLibrary);
    }

    /**
     * Starts {@code count} agents on this JVM's own classpath (the linked Curator, jetcd and every other client library
     * lockchaos is built with), under {@code clockLibrary} (or null): for recipes whose clients need no other version,
     * only a process of their own (an etcd client whose pause must stop its lease renewals and nothing else).
     */
    public static AgentLauncher startOwn(int count, Path logDir, Path clockLibrary) throws IOException {
        return start(System.getProperty("java.class.path"), List.of(), count, logDir, clockLibrary);
    }

    private static AgentLauncher start(String classpath, List<String> args, int count, Path logDir,
                                       Path clockLibrary) throws IOException {
        long t0 = System.nanoTime();
        Files.createDirectories(logDir);
        List<Process> started = new ArrayList<>();
        Thread hook = new Thread(() -> started.forEach(Process::destroyForcibly), "lockchaos-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            List<Path> clocks = new ArrayList<>();
            List<byte[]> secrets = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                Path clock = clockLibrary == null ? null : logDir.resolve("agent-" + i + ".clock");
                if (clock != null) {
                    ClockShiftLibrary.writeOffset(clock, 0); // mapped as the library loads
                }
                clocks.add(clock);
                byte[] secret = newSecret();
                secrets.add(secret);
                started.add(launch(classpath, args, logDir.resolve("agent-" + i + ".log"), clockLibrary, clock,
                        secret));
            }
            List<Agent> agents = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                agents.add(hello(started.get(i), logDir.resolve("agent-" + (i + 1) + ".log"), clocks.get(i),
                        secrets.get(i)));
            }
            return new AgentLauncher(agents, hook, (System.nanoTime() - t0) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            started.forEach(Process::destroyForcibly);
            removeHook(hook);
            throw e;
        }
    }

    /**
     * Asks the user's factory {@code className} what it promises and runs on, in a JVM of the agents' classpath (the
     * runner never loads the user's classes).
     *
     * @return the agent's answer: {@code promises} and {@code backend}, or {@code error}, a line for the user
     * @throws IOException when the JVM cannot be started or says nothing within 60 s
     */
    public static Map<String, Object> describe(List<String> userClasspath, String className, Path log)
            throws IOException {
        return describe(userClasspath, className, null, log);
    }

    /**
     * As {@link #describe(List, String, Path)}, and for a lock on its own servers the command of each server that
     * {@code slots} places (the wire's {@code {"slots": [...]}}, or null for none), under {@code commands}.
     */
    public static Map<String, Object> describe(List<String> userClasspath, String className, String slots,
                                               Path log) throws IOException {
        Files.createDirectories(log.getParent());
        List<String> args = new ArrayList<>(List.of("--describe", className));
        Path slotsFile = null;
        if (slots != null) {
            // in a file only its owner reads, not on the command line, which every local user can read: the slots
            // carry the workload's lock_settings
            slotsFile = Files.createTempFile(log.getParent(), "slots", ".json",
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            Files.writeString(slotsFile, slots, StandardCharsets.UTF_8);
            args.addAll(List.of("--slots-file", slotsFile.toString()));
        }
        // it answers and exits without listening: no secret to give
        Process p = launch(userClasspath(List.of(), userClasspath), args, log, null, null, null);
        try {
            return AgentWire.decode(firstLine(p, log));
        } finally {
            p.destroyForcibly();
            if (slotsFile != null) {
                Files.deleteIfExists(slotsFile);
            }
        }
    }

    /**
     * This project's own classes, {@code curatorJars}, then the user's entries (a {@code dir/*} entry stays for the
     * JVM to expand): the first of a class's copies wins, so the given Curator shadows the user's own.
     */
    static String userClasspath(List<Path> curatorJars, List<String> entries) throws IOException {
        StringBuilder b = new StringBuilder(classpath(curatorJars));
        for (String e : entries) {
            b.append(java.io.File.pathSeparatorChar).append(Path.of(e).toAbsolutePath());
        }
        return b.toString();
    }

    /** A run's secret for one agent: 32 random bytes, in hex (the agent reads it as a line). */
    static byte[] newSecret() {
        byte[] raw = new byte[32];
        new java.security.SecureRandom().nextBytes(raw);
        return java.util.HexFormat.of().formatHex(raw).getBytes(StandardCharsets.UTF_8);
    }

    /** Starts an agent; one given a {@code secret} gets it as the first line of its standard input, a pipe kept open. */
    private static Process launch(String classpath, List<String> args, Path log, Path clockLibrary, Path clockFile,
                                  byte[] secret) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
            cmd.addAll(List.of("/usr/bin/setpriv", "--pdeathsig", "KILL", "--"));
        }
        cmd.add(java);
        cmd.addAll(JVM_FLAGS);
        cmd.addAll(List.of("-cp", classpath, AgentMain.class.getName(),
                "--listen", "127.0.0.1:0", "--parent", Long.toString(ProcessHandle.current().pid())));
        if (secret != null) {
            cmd.addAll(List.of("--secret", "stdin"));
        }
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(secret == null ? ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))
                        : ProcessBuilder.Redirect.PIPE);
        if (clockLibrary != null) {
            pb.environment().put("LD_PRELOAD", clockLibrary.toString());
            pb.environment().put("LOCKCHAOS_CLOCK_FILE", clockFile.toString());
        }
        Callable<Process> start = pb::start;
        try {
            Process p = SPAWNER.submit(start).get();
            if (secret != null) {
                try {
                    OutputStream in = p.getOutputStream();
                    in.write(secret);
                    in.write('\n');
                    in.flush();
                } catch (IOException e) {
                    p.destroyForcibly();
                    throw new IOException("could not give a client agent its secret (see " + log + "): "
                            + e.getMessage(), e);
                }
            }
            return p;
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException io ? io : new IOException("could not start a client agent: " + c, c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting a client agent", e);
        }
    }

    /** Reads the agent's first line (where it listens); the rest of its output goes to its log. */
    private static Agent hello(Process p, Path log, Path clockFile, byte[] secret) throws IOException {
        Map<String, Object> m = AgentWire.decode(firstLine(p, log));
        if (m.get("error") != null) {
            p.destroyForcibly();
            throw new IOException(String.valueOf(m.get("error")));
        }
        String listening = (String) m.get("listening");
        int colon = listening.lastIndexOf(':');
        return new Agent(p, new InetSocketAddress(listening.substring(0, colon),
                Integer.parseInt(listening.substring(colon + 1))), (String) m.get("curator"),
                (String) m.get("zookeeper"), clockFile, secret);
    }

    /** The process's first line of output, within 60 s; the rest goes to its log. */
    private static String firstLine(Process p, Path log) throws IOException {
        InputStream stdout = p.getInputStream();
        java.util.concurrent.CompletableFuture<String> first = new java.util.concurrent.CompletableFuture<>();
        Thread drain = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8));
                 OutputStream o = Files.newOutputStream(log, java.nio.file.StandardOpenOption.CREATE,
                         java.nio.file.StandardOpenOption.APPEND)) {
                String line = r.readLine();
                first.complete(line);
                while ((line = r.readLine()) != null) {
                    o.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                first.complete(null);
            }
        }, "lockchaos-agent-output");
        drain.setDaemon(true);
        drain.start();
        String line;
        try {
            line = first.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            line = null;
        }
        if (line == null) {
            p.destroyForcibly();
            throw new IOException("a client agent did not start (see " + log + ")");
        }
        return line;
    }

    /**
     * The agent's classpath: this project's classes (the build's folder, or, from the jar, its {@code io/lockchaos}
     * entries copied once into a folder of their own, so the linked Curator stays out) and Curator's jars.
     */
    static String classpath(List<Path> curatorJars) throws IOException {
        Path own;
        try {
            own = Path.of(AgentMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException("cannot find lockchaos' own classes", e);
        }
        if (Files.isRegularFile(own)) {
            own = ownClassesOf(own);
        }
        StringBuilder b = new StringBuilder(own.toAbsolutePath().toString());
        for (Path j : curatorJars) {
            b.append(java.io.File.pathSeparatorChar).append(j.toAbsolutePath());
        }
        return b.toString();
    }

    /**
     * The {@code io/lockchaos/} classes of {@code jar} and their service registrations, extracted once per jar content (its SHA-256) into a folder of
     * this user's own (mode 700; one found with other owners or open to others is refused), and used only once a
     * marker says the extraction finished: a half-written or cleaned-up copy is made again.
     */
    private static Path ownClassesOf(Path jar) throws IOException {
        Path cacheRoot = Path.of(System.getProperty("java.io.tmpdir"), "lockchaos-agent-classes-"
                + System.getProperty("user.name").replaceAll("[^A-Za-z0-9_.-]", "_"));
        privateFolder(cacheRoot);
        Path target = cacheRoot.resolve(sha256(jar));
        if (Files.isRegularFile(target.resolve(COMPLETE))) {
            return target;
        }
        Path tmp = Files.createTempDirectory(cacheRoot, "extract-");
        try (JarFile jf = new JarFile(jar.toFile())) {
            Enumeration<JarEntry> entries = jf.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                if (e.isDirectory() || !(e.getName().startsWith("io/lockchaos/") && e.getName().endsWith(".class")
                        || e.getName().startsWith(SERVICES))) {
                    continue;
                }
                Path out = tmp.resolve(e.getName()).normalize();
                if (!out.startsWith(tmp)) {
                    continue;
                }
                Files.createDirectories(out.getParent());
                try (InputStream in = jf.getInputStream(e)) {
                    Files.copy(in, out);
                }
            }
        }
        Files.writeString(tmp.resolve(COMPLETE), jar.toString());
        if (Files.isDirectory(target)) {
            deleteTree(target); // an unfinished or cleaned-up copy
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException raced) {
            if (!Files.isRegularFile(target.resolve(COMPLETE))) {
                throw raced;
            }
            deleteTree(tmp); // another runner extracted the same jar first: its copy is as good
        }
        return target;
    }

    private static final String COMPLETE = "EXTRACTED";
    /** The registrations of lockchaos' own services ({@link io.lockchaos.client.LockServices}), found by name. */
    private static final String SERVICES = "META-INF/services/io.lockchaos.";

    /** Makes {@code dir} this user's alone, or refuses one that is not. */
    private static void privateFolder(Path dir) throws IOException {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> own =
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(own));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // made by another runner of this user a moment ago: checked below
            }
        }
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                || !Files.getOwner(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName()
                        .equals(System.getProperty("user.name"))
                || !Files.getPosixFilePermissions(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS).equals(own)) {
            throw new IOException(dir + ": the client agents' class cache must be a folder of this user's alone"
                    + " (mode 700); remove it");
        }
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return java.util.HexFormat.of().formatHex(d.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    public List<Agent> agents() {
        return agents;
    }

    @Override
    public long startMillis() {
        return startMillis;
    }

    /** Writes the allowance to each live agent's standard input; an agent that is gone has no client to serve. */
    @Override
    public synchronized void allow(List<String> endpoints) throws IOException {
        byte[] line = (AgentWire.encode(Map.of("allow", List.copyOf(endpoints))) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        for (Agent a : agents) {
            if (!a.process().isAlive()) {
                continue;
            }
            try {
                OutputStream in = a.process().getOutputStream();
                in.write(line);
                in.flush();
            } catch (IOException e) {
                if (a.process().isAlive()) {
                    throw new IOException("could not tell client agent " + a.process().pid()
                            + " which servers it may dial: " + e.getMessage(), e);
                }
            }
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
    }

    /** Kills every agent (its sessions end with it) and waits for them. */
    @Override
    public void close() {
        for (Agent a : agents) {
            a.process().destroyForcibly();
        }
        for (Agent a : agents) {
            try {
                a.process().waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        removeHook(shutdownHook);
    }
}
