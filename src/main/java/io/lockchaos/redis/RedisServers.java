package io.lockchaos.redis;

import io.lockchaos.cluster.ChildProcesses;
import io.lockchaos.cluster.ClockShiftLibrary;
import io.lockchaos.cluster.ClockShiftable;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Netns;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.PortReservations;
import io.lockchaos.cluster.Roles;
import io.lockchaos.cluster.ServerClocks;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.cluster.Sessionless;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * 1, 3 or 5 independent Redis instances (Debian's {@code redis-server}) as child processes on 127.0.0.1, each on a
 * free port with its own folder {@code baseDir/redis-N} (log, and the append-only file when persistence is on).
 * Persistence is off by default, as in most Redlock deployments: an instance killed and started again has forgotten
 * its keys. The instances are independent (Redlock's model): nothing replicates between them.
 *
 * <p>Every instance dies with the runner, also after a SIGKILL of the runner: it is started through util-linux's
 * {@code setpriv --pdeathsig KILL}, and from one long-lived thread, because the kernel sends the parent-death signal
 * when the thread that forked the child ends, not only the process. A shutdown hook kills them on a normal exit too.
 *
 * <p>With {@link Builder#clockShift(boolean)} each instance runs under this project's clock-shift library (an
 * LD_PRELOAD compiled with gcc from {@code clockshift.c}), whose offset {@link #shiftClock} moves at run time: Redis
 * then expires keys early (or late) on that instance only. Nodes are {@link ServerNode}s with only {@code id}, {@code host},
 * {@code clientPort} (the Redis port), {@code dataDir} and {@code logFile} set, so the nemesis and the proxies treat
 * them like any server.
 *
 * <p>With {@link Builder#sentinels(int)} the instances replicate instead: the first starts as the primary, the others
 * as its replicas ({@code replicaof}), and as many Redis Sentinels (Debian's {@code redis-server --sentinel}, each with
 * a configuration file of its own that it rewrites as it learns) watch them under the name {@link #PRIMARY_NAME} and
 * promote a replica when the primary is down for a second. The Sentinels are nodes too, after the instances, so that
 * faults can kill, pause and cut them; their {@link #role} is {@code sentinel}, the primary's {@code leader}, a
 * replica's {@code follower}. Replicas and Sentinels reach the instances directly, at the addresses the Sentinels
 * announce (a proxy between them would not stay: a Sentinel points a replica back at the primary's own address), so
 * cuts between them are made with each server in a network namespace of its own ({@link Builder#netns}).
 */
public final class RedisServers implements Cluster, Killable, Pausable, ClockShiftable,
        Sessionless, Roles {
    /** The name the Sentinels know the primary by (Redisson's {@code masterName}). */
    public static final String PRIMARY_NAME = "lockchaos";


    private final List<ServerNode> nodes;
    private final boolean appendOnly;
    private final ServerClocks clocks;
    private final String executable;
    private final ChildProcesses processes = new ChildProcesses(
            "redis-server");
    private final Thread shutdownHook = new Thread(this::onExit, "lockchaos-redis-shutdown");
    private final boolean clientsRenew;
    /** How many of {@link #nodes} are Redis instances (the rest are Sentinels). */
    private final int instances;
    private final int sentinels;
    /** The servers' network namespaces, one each, or null when they share the runner's loopback. */
    private final Netns netns;
    private boolean closed;

    private RedisServers(List<ServerNode> nodes, boolean appendOnly, Path shiftLibrary, String executable,
                         boolean clientsRenew, int instances, int sentinels, Netns netns) {
        this.nodes = List.copyOf(nodes);
        this.netns = netns;
        this.instances = instances;
        this.sentinels = sentinels;
        this.appendOnly = appendOnly;
        this.clocks = ServerClocks.shared("these Redis instances", nodes, shiftLibrary,
                n -> n.dataDir().resolve("clock.offset"));
        this.executable = executable;
        this.clientsRenew = clientsRenew;
    }

    @Override
    public boolean sessionless() {
        return !clientsRenew;
    }

    public static Builder builder(Path baseDir) {
        return new Builder(baseDir);
    }

    /**
     * The redis-server this machine has, or null: {@code LOCKCHAOS_REDIS_SERVER}, else {@code redis-server} on the
     * PATH, else /usr/bin/redis-server.
     */
    public static String findExecutable() {
        String env = System.getenv("LOCKCHAOS_REDIS_SERVER");
        if (env != null && !env.isBlank()) {
            return Files.isExecutable(Path.of(env)) ? env : null;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "redis-server"))) {
                    return Path.of(dir, "redis-server").toString();
                }
            }
        }
        return Files.isExecutable(Path.of("/usr/bin/redis-server")) ? "/usr/bin/redis-server" : null;
    }

    /** The one line that says what is missing and how to get it. */
    public static final String MISSING = "the Redis recipes need redis-server (Debian: apt-get install redis-server;"
            + " or set LOCKCHAOS_REDIS_SERVER to its path)";

    /** Options of a set of Redis instances. */
    public static final class Builder {
        private final Path baseDir;
        private int size = 1;
        private boolean appendOnly;
        private boolean clockShift;
        private boolean clientsRenew;
        private int sentinels;
        private Netns netns;

        private Builder(Path baseDir) {
            this.baseDir = baseDir.toAbsolutePath(); // child processes run in folders of their own
        }

        /** 1, 3 or 5 instances (default 1). */
        public Builder size(int n) {
            if (n != 1 && n != 3 && n != 5) {
                throw new IllegalArgumentException("nodes: expected 1, 3 or 5 Redis instances, got " + n);
            }
            size = n;
            return this;
        }

        /** Persistence: {@code appendonly yes} with {@code appendfsync always}, so a restart keeps every lock. */
        public Builder appendOnly(boolean on) {
            appendOnly = on;
            return this;
        }

        /** Whether the clients renew their leases in the background (Redisson's watchdog); see {@link #sessionless}. */
        public Builder clientsRenew(boolean on) {
            clientsRenew = on;
            return this;
        }

        /**
         * Replicated instances watched by {@code n} Sentinels (0, the default: independent instances); see the class
         * comment.
         */
        public Builder sentinels(int n) {
            if (n < 0 || n > 5) {
                throw new IllegalArgumentException("sentinels: expected 0 to 5, got " + n);
            }
            sentinels = n;
            return this;
        }

        /** Runs the instances under the clock-shift library so their clocks can jump (needs gcc). */
        public Builder clockShift(boolean on) {
            clockShift = on;
            return this;
        }

        /**
         * Picks free loopback ports and lays out the folders; starts nothing.
         *
         * @throws IOException when redis-server is missing ({@link #MISSING}) or the clock library cannot be built
         */
        public RedisServers build() throws IOException {
            String exe = findExecutable();
            if (exe == null) {
                throw new IOException(MISSING);
            }
            if (netns != null && netns.size() != size + sentinels) {
                throw new IllegalArgumentException((size + sentinels) + " servers need as many namespaces, not "
                        + netns.size());
            }
            List<ServerNode> nodes = new ArrayList<>();
            for (int id = 1; id <= size + sentinels; id++) {
                Path dir = baseDir.resolve(id <= size ? "redis-" + id : "sentinel-" + (id - size));
                Files.createDirectories(dir);
                nodes.add(new ServerNode(id, netns == null ? "127.0.0.1" : netns.address(id), netns == null
                        ? freePort() : id <= size ? 6379 : 26379, 0, 0, dir, dir.resolve(id <= size ? "redis.log"
                        : "sentinel.log")));
            }
            Path lib = clockShift ? ClockShiftLibrary.build(baseDir) : null;
            return new RedisServers(nodes, appendOnly, lib, exe, clientsRenew, size, sentinels, netns);
        }

        /**
         * Each server (instances and Sentinels) in a network namespace of its own of {@code ns}, on its address and
         * Redis' usual ports (6379, a Sentinel 26379): the replication and the Sentinels' links then cross the
         * namespaces' links, where iptables rules cut them ({@code cluster netns}). The namespaces are removed when the
         * servers are closed.
         */
        public Builder netns(Netns ns) {
            netns = ns;
            return this;
        }
    }

    /** A free loopback port below the ephemeral range, as the ZooKeeper servers get (no client socket takes it). */
    private static int freePort() throws IOException {
        return PortReservations.freePort();
    }

    @Override
    public synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        for (ServerNode n : nodes) {
            clocks.reset(n);
            processes.put(n.id(), launch(n));
        }
    }

    /** Whether {@code n} is a Sentinel rather than a Redis instance. */
    public boolean sentinel(ServerNode n) {
        return n.id() > instances;
    }

    /** The Redis instances, without the Sentinels. */
    public List<ServerNode> instances() {
        return nodes.subList(0, instances);
    }

    /** How many Sentinels watch the instances (0: they are independent). */
    public int sentinels() {
        return sentinels;
    }

    private Process launch(ServerNode n) throws IOException {
        if (sentinel(n)) {
            return spawn(n, sentinelCommand(n));
        }
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--pdeathsig", "KILL", "--", executable,
                "--port", Integer.toString(n.clientPort()), "--bind", n.host(), "--protected-mode", protectedMode(),
                "--dir", n.dataDir().toString(), "--logfile", n.logFile().toString(), "--daemonize", "no",
                "--save", "", "--dbfilename", "dump.rdb"));
        if (sentinels > 0) {
            // a replica syncs without a snapshot on disk and at once: a failover's promoted replica is ready sooner
            cmd.addAll(List.of("--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0"));
            if (n.id() != 1) {
                cmd.addAll(List.of("--replicaof", nodes.get(0).host(), Integer.toString(nodes.get(0).clientPort())));
            }
        }
        if (appendOnly) {
            cmd.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            cmd.addAll(List.of("--appendonly", "no"));
        }
        return spawn(n, cmd);
    }

    /**
     * Redis' protected mode, on as everywhere, but for servers in the run's namespaces: there it would refuse every
     * client (it admits loopback only, and the runner comes over the run's own bridge, which nothing outside this
     * machine reaches).
     */
    private String protectedMode() {
        return netns == null ? "yes" : "no";
    }

    /**
     * A Sentinel's command line, its configuration written the first time: a Sentinel rewrites the file as it learns
     * (the primary after a failover, the replicas, the other Sentinels), and one restarted after a kill reads it again.
     */
    private List<String> sentinelCommand(ServerNode n) throws IOException {
        Path conf = n.dataDir().resolve("sentinel.conf");
        if (!Files.exists(conf)) {
            ServerNode primary = nodes.get(0);
            Files.writeString(conf, String.join("\n",
                    "port " + n.clientPort(),
                    "bind " + n.host(),
                    "protected-mode " + protectedMode(),
                    "daemonize no",
                    "dir " + n.dataDir(),
                    "logfile " + n.logFile(),
                    "sentinel resolve-hostnames no",
                    "sentinel monitor " + PRIMARY_NAME + " " + primary.host() + " " + primary.clientPort() + " "
                            + (sentinels / 2 + 1),
                    "sentinel down-after-milliseconds " + PRIMARY_NAME + " 1000",
                    "sentinel failover-timeout " + PRIMARY_NAME + " 4000",
                    "sentinel parallel-syncs " + PRIMARY_NAME + " 1",
                    ""));
        }
        return List.of("setpriv", "--pdeathsig", "KILL", "--", executable, conf.toString(), "--sentinel");
    }

    private Process spawn(ServerNode n, List<String> cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(netns == null ? cmd : netns.inside(n.id(), cmd))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(n.dataDir().resolve("stdout.log").toFile()));
        clocks.environment(n, pb);
        return ChildProcesses.spawn(pb, "redis-server " + n.id());
    }

    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ServerNode n : nodes) {
            while (!ping(n)) {
                Process p;
                synchronized (this) {
                    p = processes.get(n.id());
                }
                if (p != null && !p.isAlive()) {
                    // what the instance said last is the cause a user can act on (a folder it cannot write, a
                    // port, a config line): say it, as an environment problem rather than an internal error
                    throw new EnvironmentProblem("redis-server " + n.id() + " exited with "
                            + p.exitValue() + lastWords(n) + " (see " + n.logFile() + " and "
                            + n.dataDir().resolve("stdout.log") + ")");
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("redis-server " + n.id() + " did not answer PING on " + n.clientAddress()
                            + " within " + timeout.toMillis() + " ms");
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * {@code leader} for the primary of replicated instances, {@code follower} for a replica, {@code sentinel} for a
     * Sentinel, {@code down} for one that does not answer or for independent instances (they have no roles).
     */
    @Override
    public String role(ServerNode n, int timeoutMillis) {
        if (sentinel(n)) {
            return "sentinel";
        }
        if (sentinels == 0) {
            return "down";
        }
        String info = ask(n, "INFO replication", timeoutMillis);
        return info == null ? "down" : info.contains("role:master") ? "leader" : info.contains("role:slave")
                ? "follower" : "down";
    }

    /** What {@code n} answers to {@code command} (a bulk reply), or null when it does not within the timeout. */
    static String ask(ServerNode n, String command, int timeoutMillis) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(n.host(), n.clientPort()), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            s.getOutputStream().write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            StringBuilder head = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0 && c != '\n') {
                head.append((char) c);
            }
            if (head.length() < 2 || head.charAt(0) != '$') {
                return null;
            }
            int len = Integer.parseInt(head.substring(1).trim());
            byte[] body = in.readNBytes(Math.max(0, len));
            return new String(body, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether the instance answers PING within 500 ms. */
    public static boolean ping(ServerNode n) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(n.host(), n.clientPort()), 500);
            s.setSoTimeout(500);
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] b = new byte[7];
            int got = 0;
            while (got < 7) {
                int r = in.read(b, got, 7 - got);
                if (r < 0) {
                    break;
                }
                got += r;
            }
            return new String(b, 0, got, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public List<ServerNode> nodes() {
        return nodes;
    }

    /** The operating-system pid of a running instance. */
    public synchronized long pid(ServerNode n) {
        return processes.pid(n.id());
    }

    @Override
    public synchronized void kill(ServerNode n) {
        processes.kill(n.id());
    }

    /** Starts a killed instance again on its port: without persistence it comes back empty. */
    @Override
    public synchronized void restart(ServerNode n) throws IOException {
        processes.requireStopped(n.id());
        processes.put(n.id(), launch(n));
        processes.awaitRestart(n.id(), () -> ping(n), 10, null);
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

    @Override
    public ServerClocks serverClocks() {
        return clocks;
    }

    /** Whether this set runs under the clock-shift library. */
    public boolean clockShift() {
        return clocks.movable();
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
            // shutting down already, or never started
        }
        Netns.closeOrWarn(netns, "the Redis servers'");
    }

    /** A normal exit without {@link #close}: the servers go, and so do their namespaces. */
    private void onExit() {
        killAll();
        Netns.closeOrWarn(netns, "the Redis servers'");
    }

    private synchronized void killAll() {
        processes.killAll();
    }

    @Override
    public Netns netns() {
        return netns;
    }

    /** The version redis-server prints, e.g. {@code 7.0.15}, or "unknown". */
    public static String version() {
        return ChildProcesses.version(findExecutable(), "v=([0-9.]+)");
    }

    /** The last non-blank line redis-server wrote (its log, else its standard output), quoted, or empty. */
    private static String lastWords(ServerNode n) {
        for (Path f : List.of(n.logFile(), n.dataDir().resolve("stdout.log"))) {
            try {
                List<String> lines = Files.readAllLines(f);
                for (int i = lines.size() - 1; i >= 0; i--) {
                    if (!lines.get(i).isBlank()) {
                        return ": \"" + lines.get(i).trim() + "\"";
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not written yet: try the next
            }
        }
        return "";
    }
}
