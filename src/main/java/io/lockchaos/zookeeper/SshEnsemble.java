package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ClockShiftLibrary;
import io.lockchaos.cluster.ClockShiftable;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.ParentWatchdog;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.ServerClocks;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.ssh.HostRun;
import io.lockchaos.ssh.SshHost;
import io.lockchaos.ssh.SshHosts;
import io.lockchaos.ssh.SshOptions;
import io.lockchaos.zookeeper.server.ChildServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.sshd.client.SshClient;

/**
 * One ZooKeeper server on each of 1, 3 or 5 hosts reached over SSH ({@code --cluster ssh}), as Jepsen runs a database
 * on its nodes. Each host needs a JRE 17+ as {@code java} on the login user's PATH; the server's classes are what a
 * local server loads of the runner's own classpath, uploaded into the run's folder on the host ({@link HostRun}).
 * A server listens on its host's name and ZooKeeper's usual ports (2181, 2888, 3888), reads its standard input from
 * the runner's connection and halts when that ends ({@link ParentWatchdog#startOnEndOfInput}); kill -9, SIGSTOP and
 * SIGCONT are {@code kill} over SSH, iptables rules go through {@link #namespaces()}; with {@link
 * Builder#clockShift}, each server runs under the clock-shift library built here and uploaded (the host must have this
 * machine's architecture), its offset file in the run's folder there. When the ensemble closes, the
 * servers' logs are copied into the local run folder and each host's keeper removes everything the run left there.
 */
public final class SshEnsemble implements Cluster, Killable, Pausable, ClockShiftable, FourLetterRoles {
    /** ZooKeeper's usual ports, which every host uses. */
    static final int CLIENT_PORT = 2181;
    static final int QUORUM_PORT = 2888;
    static final int ELECTION_PORT = 3888;

    private final SshOptions options;
    private final List<ServerNode> nodes;
    private final int tickTime;
    private final Map<String, String> extraConfig;
    private final Map<String, String> properties;
    /** The clock-shift library built here, uploaded to every host; null when clocks do not move. */
    private final Path clockLibrary;
    private final ServerClocks clocks;
    private final String run;
    // filled by one set-up thread per host while start() holds this object's lock
    private final List<SshHost> hosts = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<HostRun> runs = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Map<Integer, SshHost.Background> servers = new LinkedHashMap<>();
    private final Map<Integer, String> classpaths = new java.util.concurrent.ConcurrentHashMap<>();
    private final Thread shutdownHook = new Thread(this::close, "lockchaos-ssh-shutdown");
    private SshClient client;
    private SshHosts namespaces;
    private boolean closed;

    private SshEnsemble(SshOptions options, List<ServerNode> nodes, int tickTime, Map<String, String> extraConfig,
            Map<String, String> properties, Path clockLibrary) {
        this.properties = Map.copyOf(properties);
        this.clockLibrary = clockLibrary;
        this.clocks = new ServerClocks("these ZooKeeper servers", nodes, clockLibrary != null, this::writeOffset);
        this.options = options;
        this.nodes = List.copyOf(nodes);
        this.tickTime = tickTime;
        this.extraConfig = Map.copyOf(extraConfig);
        this.run = "r" + Long.toString(ProcessHandle.current().pid(), 36) + "-"
                + Long.toString(java.util.concurrent.ThreadLocalRandom.current().nextLong(1L << 40), 36);
    }

    public static Builder builder(Path baseDir) {
        return new Builder(baseDir);
    }

    /** Options of an SSH ensemble. */
    public static final class Builder {
        private final Path baseDir;
        private List<String> hosts = List.of();
        private SshOptions options;
        private int tickTime = 200;
        private final Map<String, String> extra = new LinkedHashMap<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private boolean clockShift;

        private Builder(Path baseDir) {
            this.baseDir = baseDir.toAbsolutePath();
        }

        /** The hosts, one server each: 1, 3 or 5 names or addresses, all different. */
        public Builder hosts(List<String> names) {
            hosts = List.copyOf(names);
            return this;
        }

        public Builder options(SshOptions o) {
            options = o;
            return this;
        }

        public Builder tickTime(int ms) {
            tickTime = ZooCfg.checkTickTime(ms);
            return this;
        }

        public Builder config(String key, String value) {
            extra.put(key, value);
            return this;
        }

        /** Runs the servers under the clock-shift library, so that {@link #shiftClock} moves their wall clocks. */
        public Builder clockShift(boolean on) {
            clockShift = on;
            return this;
        }

        /** A Java system property of every server JVM (as {@link LocalEnsemble.Builder#systemProperty}). */
        public Builder systemProperty(String key, String value) {
            properties.put(ZooCfg.checkPropertyName(key), value);
            return this;
        }

        /** Lays out the local node folders (configurations and, after the run, logs); connects to nothing. */
        public SshEnsemble build() throws IOException {
            ZooCfg.checkSize(hosts.size());
            if (hosts.stream().distinct().count() != hosts.size()) {
                throw new IllegalArgumentException("hosts: a host is named twice: " + String.join(",", hosts));
            }
            if (options == null) {
                throw new IllegalArgumentException("cluster ssh: no SSH options");
            }
            List<ServerNode> nodes = new ArrayList<>();
            for (int id = 1; id <= hosts.size(); id++) {
                Path dir = baseDir.resolve("node-" + id);
                Files.createDirectories(dir);
                nodes.add(new ServerNode(id, hosts.get(id - 1), CLIENT_PORT, QUORUM_PORT, ELECTION_PORT, null,
                        dir.resolve("server.log")));
            }
            Path lib = clockShift ? ClockShiftLibrary.build(baseDir) : null;
            return new SshEnsemble(options, nodes, tickTime, extra, properties, lib);
        }
    }

    @Override
    public List<ServerNode> nodes() {
        return nodes;
    }

    /** The run's id, which names its folder and its rules on every host. */
    public String runId() {
        return run;
    }

    /** The hosts' iptables, for {@code io.lockchaos.nemesis.IptablesPartitioner}; null before {@link #start}. */
    @Override
    public synchronized SshHosts namespaces() {
        return namespaces;
    }

    /** This run's record on host {@code id} (for tests: its folder, its keeper). */
    public synchronized HostRun hostRun(int id) {
        return runs.get(id - 1);
    }

    /**
     * Logs in to every host, sweeps what dead runs left there, uploads the server classes and starts the servers.
     * Whatever fails, what was started is undone before the error is thrown.
     */
    @Override
    public synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("ensemble closed");
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            client = SshHost.client(options);
            for (int i = 0; i < nodes.size(); i++) {
                hosts.add(null);
                runs.add(null);
            }
            List<Path> jars = ServerJars.forHosts();
            // every host set up at once: each step is a round trip, and hosts may be far away
            List<java.util.concurrent.Future<Void>> setups = new ArrayList<>();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                    nodes.size());
            try {
                for (ServerNode n : nodes) {
                    setups.add(pool.submit(() -> {
                        SshHost h = SshHost.connect(client, options, n.host());
                        hosts.set(n.id() - 1, h);
                        HostRun r = HostRun.begin(h, run);
                        runs.set(n.id() - 1, r);
                        prepare(n, jars);
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<Void> f : setups) {
                    try {
                        f.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        // a host that cannot be reached, logged in to or used is the user's to fix: one line
                        throw new EnvironmentProblem("cluster ssh: " + e.getCause().getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while setting up the hosts", e);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            namespaces = new SshHosts(runs);
            for (ServerNode n : nodes) {
                launch(n);
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Checks the host's java, uploads the classes and writes zoo.cfg and myid into the run's folder there. */
    private void prepare(ServerNode n, List<Path> jars) throws IOException {
        SshHost h = hosts.get(n.id() - 1);
        String dir = runs.get(n.id() - 1).dir();
        try {
            h.run(List.of("java", "-version"));
        } catch (IOException e) {
            throw new IOException("host " + n.host() + ": no java on the PATH of " + options.user()
                    + " (a JRE 17 or later is needed there): " + e.getMessage());
        }
        h.run(List.of("mkdir", "-p", "--", dir + "/data"));
        Map<String, Path> files = new LinkedHashMap<>();
        List<String> cp = new ArrayList<>();
        for (int i = 0; i < jars.size(); i++) {
            String name = i + "-" + jars.get(i).getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_");
            files.put(name, jars.get(i));
            cp.add(dir + "/cp/" + name);
        }
        h.uploadAll(files, dir + "/cp");
        classpaths.put(n.id(), String.join(":", cp));
        String cfg = ZooCfg.text(n, nodes, tickTime, dir + "/data", CLIENT_PORT, n.host(),
                (from, to) -> new java.net.InetSocketAddress(to.host(), QUORUM_PORT),
                (from, to) -> new java.net.InetSocketAddress(to.host(), ELECTION_PORT), extraConfig);
        h.write(dir + "/zoo.cfg", cfg);
        if (clockLibrary != null) {
            String here = System.getProperty("os.arch").replace("amd64", "x86_64");
            String there = h.run(List.of("uname", "-m")).trim();
            if (!there.equals(here) || java.nio.ByteOrder.nativeOrder() != java.nio.ByteOrder.LITTLE_ENDIAN) {
                throw new IOException("host " + n.host() + ": server clock faults load a library built here for "
                        + here + ", and the host is " + there);
            }
            h.uploadAll(Map.of("clockshift.so", clockLibrary), dir);
            h.run(List.of("dd", "if=/dev/zero", "of=" + dir + "/clock.offset", "bs=8", "count=1"));
        }
        Files.writeString(n.logFile().getParent().resolve("zoo.cfg"), cfg, StandardCharsets.UTF_8);
        if (nodes.size() > 1) {
            h.write(dir + "/data/myid", Integer.toString(n.id()));
        }
    }

    private void launch(ServerNode n) throws IOException {
        SshHost h = hosts.get(n.id() - 1);
        HostRun r = runs.get(n.id() - 1);
        List<String> cmd = new ArrayList<>();
        if (clockLibrary != null) {
            cmd.addAll(List.of("env", "LD_PRELOAD=" + r.dir() + "/clockshift.so", "LOCKCHAOS_CLOCK_FILE=" + r.dir()
                    + "/clock.offset"));
        }
        cmd.add("java");
        cmd.addAll(ZooCfg.jvmFlags());
        properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        // log in the runner's zone: ServerLogs places the servers' log times on the history's clock
        cmd.add("-Duser.timezone=" + java.time.ZoneId.systemDefault().getId());
        cmd.addAll(List.of("-cp", classpaths.get(n.id()), ChildServer.class.getName(), "stdin",
                r.dir() + "/zoo.cfg"));
        SshHost.Background b = h.start(r.dir(), cmd, r.dir() + "/server.log");
        servers.put(n.id(), b);
        r.recordProcess(b.pid());
    }

    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Integer, String> modes = new LinkedHashMap<>();
        while (true) {
            if (FourLetterWords.serving(nodes, modes)) {
                return;
            }
            synchronized (this) {
                for (Map.Entry<Integer, SshHost.Background> e : servers.entrySet()) {
                    if (e.getValue() != null && !e.getValue().alive()) {
                        ServerNode n = nodes.get(e.getKey() - 1);
                        throw new IOException("server " + n.id() + " on " + n.host() + " exited with code "
                                + e.getValue().exitStatus() + lastLine(n));
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("ensemble not healthy after " + timeout.toMillis() + " ms: modes " + modes);
            }
            Thread.sleep(50);
        }
    }

    /** The last line of a server's log on its host, quoted, or "" when it cannot be read. */
    private String lastLine(ServerNode n) {
        try {
            String log = hosts.get(n.id() - 1).read(runs.get(n.id() - 1).dir() + "/server.log");
            return log.isBlank() ? "" : ": \"" + log.strip().lines().reduce((a, b) -> b).orElse("") + "\"";
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public ServerClocks serverClocks() {
        return clocks;
    }

    /** Stores a server's offset in its file on its host, in place (the library has it mapped). */
    private void writeOffset(ServerNode n, long offsetMillis) throws IOException {
        byte[] b = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putLong(Math.multiplyExact(offsetMillis, 1_000_000L)).array();
        hosts.get(n.id() - 1).overwrite(runs.get(n.id() - 1).dir() + "/clock.offset", b);
    }

    @Override
    public synchronized void kill(ServerNode n) {
        SshHost.Background b = servers.get(n.id());
        if (b == null) {
            return;
        }
        signal(n, b, "-KILL");
        b.awaitExit(Duration.ofSeconds(10));
        b.close();
        servers.put(n.id(), null);
    }

    @Override
    public synchronized void restart(ServerNode n) throws IOException {
        if (servers.get(n.id()) != null) {
            throw new IllegalStateException("server " + n.id() + " is running");
        }
        launch(n);
    }

    @Override
    public synchronized void pause(ServerNode n) {
        signal(n, servers.get(n.id()), "-STOP");
    }

    @Override
    public synchronized void resume(ServerNode n) {
        signal(n, servers.get(n.id()), "-CONT");
    }

    private void signal(ServerNode n, SshHost.Background b, String sig) {
        if (b == null) {
            return;
        }
        try {
            hosts.get(n.id() - 1).run(List.of("kill", sig, Long.toString(b.pid())));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Stops the servers, copies their logs here, and has every host's keeper undo the run. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // already shutting down (this is the hook), or never started
        }
        for (int i = 0; i < runs.size(); i++) {
            ServerNode n = nodes.get(i);
            if (runs.get(i) == null) {
                continue;
            }
            SshHost.Background b = servers.get(n.id());
            try {
                if (b != null) {
                    signal(n, b, "-KILL");
                    b.awaitExit(Duration.ofSeconds(10));
                    b.close();
                }
                Files.writeString(n.logFile(), hosts.get(i).read(runs.get(i).dir() + "/server.log"),
                        StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                System.err.println("lockchaos: warning: server " + n.id() + " on " + n.host() + ": " + e.getMessage());
            }
        }
        HostRun.closeAll(runs, hosts);
        if (client != null) {
            client.stop();
        }
    }
}
