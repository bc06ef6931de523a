package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ChildProcesses;
import io.lockchaos.cluster.ClockShiftLibrary;
import io.lockchaos.cluster.ClockShiftable;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Netns;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.PeerRouting;
import io.lockchaos.cluster.PortReservations;
import io.lockchaos.cluster.ServerClocks;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.nemesis.Nemesis;
import io.lockchaos.nemesis.ServerFaults;
import io.lockchaos.zookeeper.server.ChildServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * 1, 3 or 5 ZooKeeper servers as child JVMs from this project's own classpath, on 127.0.0.1 and free ports, each
 * with its own data directory, zoo.cfg and log file under {@code baseDir/node-N}. The admin server is off and the
 * four-letter words srvr, mntr, dump, cons and ruok are allowed. Servers start in parallel; each child halts when this
 * JVM is gone (see {@link ChildServer}), and a shutdown hook kills them on a normal exit. Build with {@link
 * #builder(Path)}.
 */
public final class LocalEnsemble implements Cluster, Killable, Pausable, ClockShiftable, FourLetterRoles,
        ServerFaults {
    private final List<ServerNode> nodes;
    /** Servers laid out but not in the ensemble: membership faults start them to join it (see {@link #startNew}). */
    private final List<ServerNode> spares;
    private final ChildProcesses processes = new ChildProcesses("server");
    private final Map<Integer, Path> configs = new LinkedHashMap<>();
    private final int tickTime;
    private final Map<String, String> extraConfig;
    private final PeerRouting routing;
    /** The servers' namespaces, or null when they share the runner's loopback. */
    private final Netns netns;
    private final Map<String, String> properties;
    private final ServerClocks clocks;
    /** The servers' classpath: the runner's own, or the launcher's part of it and another ZooKeeper's jars. */
    private final String classpath;
    private final Thread shutdownHook = new Thread(this::onExit, "lockchaos-ensemble-shutdown");
    private boolean closed;

    private LocalEnsemble(List<ServerNode> nodes, List<ServerNode> spares, int tickTime, Map<String, String> extraConfig,
            PeerRouting routing, Netns netns, Map<String, String> properties, Path shiftLibrary,
            List<Path> zooKeeperJars) {
        this.classpath = zooKeeperJars == null ? System.getProperty("java.class.path")
                : String.join(java.io.File.pathSeparator, ServerJars.launcher(java.util.Arrays.stream(System
                        .getProperty("java.class.path").split(java.io.File.pathSeparator)).map(Path::of).toList(),
                        zooKeeperJars).stream().map(Path::toString).toList());
        List<ServerNode> all = new ArrayList<>(nodes);
        all.addAll(spares);
        this.clocks = ServerClocks.shared("these ZooKeeper servers", all, shiftLibrary,
                n -> n.dataDir().getParent().resolve("clock.offset"));
        this.properties = Map.copyOf(properties);
        this.nodes = List.copyOf(nodes);
        this.spares = List.copyOf(spares);
        this.tickTime = tickTime;
        this.extraConfig = Map.copyOf(extraConfig);
        this.routing = routing;
        this.netns = netns;
    }

    public static Builder builder(Path baseDir) {
        return new Builder(baseDir);
    }

    /** Options of a local ensemble. */
    public static final class Builder {
        private final Path baseDir;
        private int size = 3;
        private int tickTime = 200;
        private final Map<String, String> extra = new LinkedHashMap<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private PeerRouting routing = PeerRouting.DIRECT;
        private Netns netns;
        private boolean clockShift;
        private List<Path> zooKeeperJars;
        private int firstServerId = 1;
        private int spares;

        private Builder(Path baseDir) {
            this.baseDir = baseDir.toAbsolutePath(); // child processes run in folders of their own
        }

        /** 1, 3 or 5 servers (default 3). */
        public Builder size(int n) {
            size = ZooCfg.checkSize(n);
            return this;
        }

        /**
         * ZooKeeper's tickTime in ms (default 200: sessions of 0.4 to 4 s are allowed, since the server clamps
         * timeouts to 2..20 ticks).
         */
        public Builder tickTime(int ms) {
            tickTime = ZooCfg.checkTickTime(ms);
            return this;
        }

        /**
         * The myid of the first server; the others follow (default 1). Ids from 128 make the sessions those servers
         * create negative, which ZooKeeper 3.5.3 took for TTL nodes' owners (ZOOKEEPER-2901).
         */
        public Builder firstServerId(int id) {
            if (id < 1 || id > 254) {
                throw new IllegalArgumentException("first_server_id: expected 1 to 254, got " + id);
            }
            firstServerId = id;
            return this;
        }

        /**
         * Servers to lay out beside the ensemble (ports, folder, myid after the others) without starting them: a
         * membership fault starts one to join the running ensemble ({@link #startNew}). Needs reconfiguration.
         */
        public Builder spares(int k) {
            if (k < 0 || k > 2) {
                throw new IllegalArgumentException("spare servers: expected 0 to 2, got " + k);
            }
            spares = k;
            return this;
        }

        /** Any other zoo.cfg key. */
        public Builder config(String key, String value) {
            extra.put(key, value);
            return this;
        }

        /** Servers that take dynamic reconfiguration from {@link Membership} (membership faults). */
        public Builder reconfigurable() {
            return Membership.enable(this);
        }

        /**
         * Runs the servers on another ZooKeeper release: {@code jars} are its jar and its dependencies (see
         * VersionResolver); the servers then run ZooKeeper's own QuorumPeerMain, so there is no routing through peer
         * proxies (which needs lockchaos' server main, built on the linked ZooKeeper).
         */
        public Builder zooKeeperJars(List<Path> jars) {
            zooKeeperJars = jars == null ? null : List.copyOf(jars);
            return this;
        }

        public Builder routing(PeerRouting r) {
            routing = r;
            return this;
        }

        /**
         * A Java system property of every server JVM: some ZooKeeper settings are read only from those, such as
         * {@code znode.container.checkIntervalMs} (how often empty container nodes are reaped).
         */
        public Builder systemProperty(String key, String value) {
            properties.put(ZooCfg.checkPropertyName(key), value);
            return this;
        }

        /**
         * Runs each server in its own namespace of {@code n} (which must have a namespace per server), on its own
         * address and ZooKeeper's usual ports; the ensemble removes the namespaces when it is closed.
         */
        public Builder netns(Netns n) {
            netns = n;
            return this;
        }

        /**
         * Runs the servers under the clock-shift library (built with gcc), so that {@link #shiftClock} moves a server
         * JVM's wall clock ({@code System.currentTimeMillis}); its monotonic clock, which ZooKeeper times sessions
         * and ticks by, stays true.
         */
        public Builder clockShift(boolean on) {
            clockShift = on;
            return this;
        }

        /** Picks free loopback ports (or the namespaces' addresses) and lays out the node directories; starts nothing. */
        public LocalEnsemble build() throws IOException {
            if (netns != null && netns.size() != size + spares) {
                throw new IllegalArgumentException(size + spares + " servers need " + (size + spares)
                        + " namespaces, not " + netns.size());
            }
            if (firstServerId + size + spares - 1 > 254) {
                throw new IllegalArgumentException("first_server_id: " + (size + spares) + " servers from "
                        + firstServerId + " pass 254, the highest myid ZooKeeper takes");
            }
            List<ServerNode> nodes = new ArrayList<>();
            for (int id = 1; id <= size + spares; id++) {
                Path dir = baseDir.resolve("node-" + id);
                Files.createDirectories(dir.resolve("data"));
                nodes.add(netns != null
                        ? new ServerNode(id, netns.address(id), 2181, 2888, 3888, dir.resolve("data"),
                                dir.resolve("server.log"), firstServerId + id - 1)
                        : new ServerNode(id, "127.0.0.1", PortReservations.freePort(), PortReservations.freePort(), PortReservations.freePort(), dir.resolve("data"),
                                dir.resolve("server.log"), firstServerId + id - 1));
            }
            Path lib = clockShift ? ClockShiftLibrary.build(baseDir) : null;
            if (zooKeeperJars != null && routing != PeerRouting.DIRECT) {
                throw new IllegalArgumentException("servers of another ZooKeeper version run its own QuorumPeerMain:"
                        + " no routing through peer proxies");
            }
            if (spares > 0 && routing != PeerRouting.DIRECT) {
                throw new IllegalArgumentException("servers joining later dial the others directly: no routing"
                        + " through peer proxies");
            }
            return new LocalEnsemble(nodes.subList(0, size), nodes.subList(size, size + spares), tickTime, extra,
                    routing, netns, properties, lib, zooKeeperJars);
        }
    }

    /** ZooKeeper's own faults: a server's transaction log truncated or corrupted, and members taken out or added. */
    @Override
    public List<Nemesis> nemeses() {
        return List.of(new DiskNemesis(), new MembershipNemesis());
    }

    @Override
    public List<ServerNode> nodes() {
        return nodes;
    }

    /** The servers laid out beside the ensemble for membership faults; none of them is started by {@link #start}. */
    public List<ServerNode> spares() {
        return spares;
    }

    /**
     * Starts {@code spare} to join the running ensemble: its configuration names the voting {@code members} and itself,
     * as ZooKeeper's reconfiguration guide asks of a joiner; it syncs with the leader as a non-voting follower until
     * a reconfiguration adds it. Its data folder starts empty, so it learns everything from the leader.
     */
    public synchronized void startNew(ServerNode spare, List<ServerNode> members) throws IOException {
        if (!spares.contains(spare)) {
            throw new IllegalArgumentException("server " + spare.id() + " is no spare of this ensemble");
        }
        processes.requireStopped(spare.id());
        List<ServerNode> view = new ArrayList<>(members);
        view.add(spare);
        String text = ZooCfg.text(spare, view, tickTime, spare.dataDir().toAbsolutePath().toString(),
                spare.clientPort(), spare.host(), this::quorum, this::election, extraConfig);
        Files.writeString(spare.dataDir().resolve("myid"), Integer.toString(spare.myid()), StandardCharsets.US_ASCII);
        Path file = spare.dataDir().getParent().resolve("zoo.cfg");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        configs.put(spare.id(), file);
        clocks.reset(spare);
        processes.put(spare.id(), launch(spare));
    }

    /** A server of this ensemble or one of its spares, by id. */
    private ServerNode node(int id) {
        return id <= nodes.size() ? nodes.get(id - 1) : spares.get(id - nodes.size() - 1);
    }

    @Override
    public synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("ensemble closed");
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        for (ServerNode n : nodes) {
            configs.put(n.id(), writeConfig(n));
        }
        for (ServerNode n : nodes) {
            clocks.reset(n);
            processes.put(n.id(), launch(n));
        }
    }

    @Override
    public ServerClocks serverClocks() {
        return clocks;
    }

    private Path writeConfig(ServerNode n) throws IOException {
        String text = ZooCfg.text(n, nodes, tickTime, n.dataDir().toAbsolutePath().toString(), n.clientPort(), n.host(),
                this::quorum, this::election, extraConfig);
        if (nodes.size() > 1) {
            Files.writeString(n.dataDir().resolve("myid"), Integer.toString(n.myid()), StandardCharsets.US_ASCII);
        }
        Path file = n.dataDir().getParent().resolve("zoo.cfg");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    /** Where {@code from} reaches {@code to}'s quorum port: its own port for itself, else through the routing. */
    private InetSocketAddress quorum(ServerNode from, ServerNode to) {
        return from.id() == to.id() ? new InetSocketAddress(to.host(), to.quorumPort()) : routing.quorum(from, to);
    }

    private InetSocketAddress election(ServerNode from, ServerNode to) {
        return from.id() == to.id() ? new InetSocketAddress(to.host(), to.electionPort())
                : routing.election(from, to);
    }

    /** The servers' namespaces, or null when they run on the runner's loopback. */
    public Netns netns() {
        return netns;
    }

    private Process launch(ServerNode n) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(ZooCfg.jvmFlags());
        properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        String advertise = ZooCfg.advertiseFlag(n, nodes, routing != PeerRouting.DIRECT, this::election);
        if (advertise != null) {
            cmd.add(advertise);
        }
        cmd.addAll(List.of("-cp", classpath, ChildServer.class.getName(),
                Long.toString(ProcessHandle.current().pid()), configs.get(n.id()).toAbsolutePath().toString()));
        ProcessBuilder pb = new ProcessBuilder(netns == null ? cmd : netns.inside(n.id(), cmd));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(n.logFile().toFile()));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        clocks.environment(n, pb);
        return pb.start();
    }

    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Integer, String> modes = new LinkedHashMap<>();
        while (true) {
            if (FourLetterWords.serving(nodes, modes)) {
                return;
            }
            for (Map.Entry<Integer, Process> e : processes.all().entrySet()) {
                if (!e.getValue().isAlive() && isRunning(e.getKey())) {
                    throw new IOException("server " + e.getKey() + " exited with code " + e.getValue().exitValue()
                            + why(node(e.getKey())) + "; see " + node(e.getKey()).logFile());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("ensemble not healthy after " + timeout.toMillis() + " ms: modes " + modes);
            }
            Thread.sleep(25);
        }
    }

    /**
     * Whether the server's process is meant to run and does; {@code -1} when it does (or is not meant to), its exit
     * code when it was started and has exited since (a server that refused its data, for one).
     */
    public synchronized int exitCode(ServerNode n) {
        Process p = processes.get(n.id());
        return p == null || p.isAlive() ? -1 : p.exitValue();
    }

    /**
     * The first error line of a server's log (ZooKeeper logs why it stops, then a stack trace), quoted, or the last
     * line when none says ERROR: the log of a test's server is gone with its folder, the exception is what is left.
     */
    private static String why(ServerNode n) {
        try {
            List<String> lines = Files.readAllLines(n.logFile());
            String pick = "";
            for (int i = 0; i < lines.size() && pick.isEmpty(); i++) {
                String l = lines.get(i);
                if (l.contains("ERROR") || l.startsWith("Error") || l.startsWith("Exception")) {
                    // ZooKeeper's "Unexpected exception, exiting abnormally" says why on the line after it
                    pick = l.trim() + (i + 1 < lines.size() ? " / " + lines.get(i + 1).trim() : "");
                }
            }
            if (pick.isEmpty()) {
                pick = lines.stream().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("").trim();
            }
            return pick.isEmpty() ? "" : ": \"" + (pick.length() > 500 ? pick.substring(0, 500) + "..." : pick) + "\"";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Whether the server is meant to be running (started and not killed). */
    public synchronized boolean running(ServerNode n) {
        return processes.running(n.id());
    }

    /** Whether the server is meant to be running (not killed by {@link #kill}). */
    private synchronized boolean isRunning(int id) {
        return processes.running(id);
    }

    /** The current leader, if exactly one server says it leads. */
    public Optional<ServerNode> leader() {
        ServerNode found = null;
        for (ServerNode n : nodes) {
            if (FourLetterWords.mode(n, 500).filter("leader"::equals).isPresent()) {
                if (found != null) {
                    return Optional.empty();
                }
                found = n;
            }
        }
        return Optional.ofNullable(found);
    }

    /** The operating-system pid of a running server. */
    public synchronized long pid(ServerNode n) {
        return processes.pid(n.id());
    }

    @Override
    public synchronized void kill(ServerNode n) {
        processes.kill(n.id());
    }

    @Override
    public synchronized void restart(ServerNode n) throws IOException {
        processes.requireStopped(n.id());
        processes.put(n.id(), launch(n));
    }

    @Override
    public void pause(ServerNode n) {
        signal(n, "-STOP");
    }

    @Override
    public void resume(ServerNode n) {
        signal(n, "-CONT");
    }

    private synchronized void signal(ServerNode n, String sig) {
        processes.signal(n.id(), sig);
    }

    /** A normal exit without {@link #close}: the servers go, and so do their namespaces (a SIGKILL leaves those to {@link Netns#sweep}). */
    private void onExit() {
        killAll();
        if (netns != null) {
            try {
                netns.close();
            } catch (IOException e) {
                System.err.println("lockchaos: warning: " + e.getMessage());
            }
        }
    }

    private synchronized void killAll() {
        processes.killAll();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // already shutting down, or never started: the hook has nothing left to do
        }
        Netns.closeOrWarn(netns, "the servers'");
    }
}
