package io.lockchaos.pg;

import io.lockchaos.cluster.ClockShiftLibrary;
import io.lockchaos.cluster.ClockShiftable;
import io.lockchaos.cluster.ChildProcesses;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.PeerRouting;
import io.lockchaos.cluster.PortReservations;
import io.lockchaos.cluster.Promotable;
import io.lockchaos.cluster.ServerClocks;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.cluster.Sessionless;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * PostgreSQL servers as child processes of the runner, from the machine's binaries ({@code LOCKCHAOS_PG_BIN}, else the
 * newest {@code /usr/lib/postgresql/N/bin}): each initialized with {@code initdb} (trust authentication for the user
 * {@code lockchaos}, on loopback only), listening on 127.0.0.1 on a port of its own, its Unix socket in its own folder,
 * its log in {@code baseDir/pg-N}. PostgreSQL refuses to run as root, so where the runner is root, {@code initdb} and
 * {@code postgres} run as the {@code postgres} user Debian's package creates ({@code setpriv --reuid}), on data in a
 * folder of their own under /tmp (removed when the servers close); otherwise the data is {@code baseDir/pg-N/data}.
 *
 * <p>Every server dies with the runner: {@code postgres} is started through {@code setpriv --pdeathsig KILL} from one
 * long-lived thread, and its backends end once their postmaster is gone. A kill (and the end of the run) SIGKILLs the
 * postmaster and every process under it: the instance is gone at once, with its advisory locks; a restart runs crash
 * recovery on the same folder. A pause SIGSTOPs the whole tree, as a frozen machine would stop.
 */
public final class PgServers implements Cluster, Killable, Pausable, Sessionless,
        ClockShiftable, Promotable {
    /** The database user the clients connect as (trust authentication, loopback only). */
    public static final String USER = "lockchaos";

    /** What a run says where the binaries are missing. */
    public static final String MISSING = "the PostgreSQL recipes need PostgreSQL's server binaries (Debian: apt-get"
            + " install postgresql; or set LOCKCHAOS_PG_BIN to the folder that holds initdb and postgres)";

    private final List<ServerNode> nodes;
    /** Each server's own folder: its data and its socket (under /tmp, owned by postgres, when the runner is root). */
    private final Map<Integer, Path> homes;
    private final Path bin;
    private final boolean asPostgresUser;
    private final boolean clientsRenew;
    /** The servers' clocks: each runs its own copy of the library, its offset file in its own folder. */
    private final ServerClocks clocks;
    private final Map<Integer, Process> running = new ConcurrentHashMap<>();
    /** Node 1 a primary and the others its streaming replicas, or {@link PgReplication#NONE}. */
    private final PgReplication replication;
    /** How a replica reaches the primary (through a peer proxy when the run cuts servers apart). */
    private final PeerRouting routing;
    /** Servers a failover fenced: they stay down for the rest of the run. */
    private final java.util.Set<Integer> fenced = ConcurrentHashMap.newKeySet();
    private final Thread shutdownHook = new Thread(this::killAll, "lockchaos-pg-shutdown");
    private boolean closed;

    private PgServers(List<ServerNode> nodes, Map<Integer, Path> homes, Path bin, boolean asPostgresUser,
                      boolean clientsRenew, Map<Integer, Path> shiftLibraries, PgReplication replication,
                      PeerRouting routing) {
        this.replication = replication;
        this.routing = routing;
        this.nodes = nodes;
        this.homes = homes;
        this.bin = bin;
        this.asPostgresUser = asPostgresUser;
        this.clientsRenew = clientsRenew;
        this.clocks = new ServerClocks("these PostgreSQL servers", shiftLibraries,
                n -> homes.get(n.id()).resolve("clock.offset"));
    }

    /** The folder of initdb and postgres, or null when this machine has none. */
    public static Path findBinaries() {
        String env = System.getenv("LOCKCHAOS_PG_BIN");
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            return Files.isExecutable(p.resolve("postgres")) && Files.isExecutable(p.resolve("initdb")) ? p : null;
        }
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("postgres"))
                    && Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparingInt(PgServers::majorOf)).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static int majorOf(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Initializes {@code size} servers under {@code baseDir} (not started).
     *
     * @param clientsRenew whether the clients renew a lease in the background (a paused client's renewals must stop
     *     with it: see {@link io.lockchaos.cluster.Sessionless})
     * @throws IOException when the binaries are missing ({@link #MISSING}) or initdb fails (its output is said)
     */
    public static PgServers create(Path baseDir, int size, boolean clientsRenew) throws IOException {
        return create(baseDir, size, clientsRenew, false);
    }

    /**
     * As {@link #create(Path, int, boolean)}; with {@code clockShift} every server runs under the clock-shift library
     * (built with gcc), so that {@link #shiftClock} moves its wall clock: {@code now()}, and every lease judged by it.
     */
    public static PgServers create(Path baseDir, int size, boolean clientsRenew, boolean clockShift)
            throws IOException {
        return create(baseDir, size, clientsRenew, clockShift, PgReplication.NONE,
                PeerRouting.DIRECT);
    }

    /**
     * As {@link #create(Path, int, boolean, boolean)}; with {@code replication} other than NONE, node 1 is the primary
     * and every other node a streaming replica made from it by {@code pg_basebackup} when the servers start, reaching
     * it through {@code routing} (a peer proxy, so that cutting servers apart stops the replication).
     */
    public static PgServers create(Path baseDir, int size, boolean clientsRenew, boolean clockShift,
                                   PgReplication replication, PeerRouting routing)
            throws IOException {
        if (replication != PgReplication.NONE && size < 2) {
            throw new IllegalArgumentException("replication needs a primary and at least one replica, got " + size
                    + " server(s)");
        }
        Path bin = findBinaries();
        if (bin == null) {
            throw new IOException(MISSING);
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        List<ServerNode> nodes = new ArrayList<>();
        Map<Integer, Path> homes = new java.util.LinkedHashMap<>();
        for (int id = 1; id <= size; id++) {
            Path dir = baseDir.resolve("pg-" + id).toAbsolutePath();
            Files.createDirectories(dir);
            // as root the server runs as postgres, which cannot reach the run's folder (nor should the run open the
            // folders above it): its data and socket live in a folder of its own under /tmp, removed at the end
            Path home = root ? Files.createTempDirectory("lockchaos-pg-") : dir;
            if (root) {
                run(List.of("chown", "postgres:postgres", home.toString()), dir.resolve("initdb.log"));
                Files.writeString(dir.resolve("data-folder.txt"), home + "\n");
            }
            int port = PortReservations.freePort();
            // a replica's connection to the primary is their "quorum" link: the peer proxies carry it
            ServerNode n = new ServerNode(id, "127.0.0.1", port, replication == PgReplication.NONE ? 0 : port, 0, dir,
                    dir.resolve("postgres.log"));
            if (id == 1 || replication == PgReplication.NONE) { // a replica's data is the primary's base backup
                List<String> initdb = new ArrayList<>(asUser(root));
                initdb.addAll(List.of(bin.resolve("initdb").toString(), "-D", home.resolve("data").toString(), "-U",
                        USER, "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"));
                run(initdb, dir.resolve("initdb.log"));
            }
            nodes.add(n);
            homes.put(id, home);
        }
        Map<Integer, Path> libraries = new java.util.LinkedHashMap<>();
        if (clockShift) {
            Path built = ClockShiftLibrary.build(baseDir.toAbsolutePath());
            for (Map.Entry<Integer, Path> h : homes.entrySet()) {
                // as root the server cannot reach the run's folder: each gets a copy in its own
                Path lib = root ? Files.copy(built, h.getValue().resolve("clockshift.so")) : built;
                libraries.put(h.getKey(), lib);
            }
        }
        return new PgServers(nodes, homes, bin, root, clientsRenew, libraries, replication, routing);
    }

    private static List<String> asUser(boolean root) {
        return root ? List.of("setpriv", "--reuid", "postgres", "--regid", "postgres", "--clear-groups", "--")
                : List.of();
    }

    /** Runs a setup command to its end, its output to {@code log}; fails with the output's last line. */
    private static void run(List<String> cmd, Path log) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(cmd.get(0) + " did not finish within 120 s (see " + log + ")");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + cmd.get(0), e);
        }
        if (p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            String last = lines.isEmpty() ? "" : ": " + lines.get(lines.size() - 1);
            String program = cmd.contains("--") ? cmd.get(cmd.indexOf("--") + 1) : cmd.get(0);
            throw new EnvironmentProblem(Path.of(program).getFileName() + " exited with "
                    + p.exitValue() + last + " (see " + log + ")");
        }
    }

    @Override
    public boolean sessionless() {
        return !clientsRenew;
    }

    @Override
    public synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        startReaper();
        for (ServerNode n : nodes) {
            clocks.reset(n);
            if (isReplica(n)) {
                awaitAnswer(nodes.get(0), Duration.ofSeconds(60)); // the base backup is taken from the running primary
                baseBackup(n);
            }
            running.put(n.id(), launch(n));
            writeGroups();
        }
    }

    /** Whether {@code n} started as a streaming replica of node 1. */
    private boolean isReplica(ServerNode n) {
        return replication != PgReplication.NONE && n.id() != 1;
    }

    /** Copies the primary's data into {@code n}'s folder as a standby ({@code pg_basebackup -R}). */
    private void baseBackup(ServerNode n) throws IOException {
        ServerNode primary = nodes.get(0);
        List<String> cmd = new ArrayList<>(asUser(asPostgresUser));
        cmd.addAll(List.of(bin.resolve("pg_basebackup").toString(), "-h", primary.host(), "-p",
                Integer.toString(primary.clientPort()), "-U", USER, "-D", homes.get(n.id()).resolve("data").toString(),
                "-X", "stream", "-c", "fast", "--no-sync", "-R"));
        run(cmd, n.dataDir().resolve("basebackup.log"));
    }

    /** Waits until {@code n} answers, failing at once when its process has exited, else after {@code timeout}. */
    private void awaitAnswer(ServerNode n, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!answers(n.clientAddress())) {
            Process p = running.get(n.id());
            if (p != null && !p.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("postgres " + n.id() + " did not answer on " + n.clientAddress() + " within "
                        + timeout.toSeconds() + " s (see " + n.logFile() + ")");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for postgres " + n.id(), e);
            }
        }
    }

    @Override
    public ServerClocks serverClocks() {
        return clocks;
    }

    /** The file of the postmasters' pids, which {@link PgReaper} reads; null before the servers start. */
    private Path groups;

    /** Starts the reaper of these servers' processes (see {@link PgReaper}). */
    private void startReaper() throws IOException {
        groups = nodes.get(0).dataDir().getParent().resolve("pg-postmasters.txt");
        Files.writeString(groups, "");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String own; // the reaper needs nothing but its own class and the JDK: where this class came from will do
        try {
            own = Path.of(PgReaper.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IOException("cannot find lockchaos' own classes", e);
        }
        new ProcessBuilder(java, "-Xmx16m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-cp",
                own, PgReaper.class.getName(),
                Long.toString(ProcessHandle.current().pid()), groups.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    }

    /** Writes every running postmaster's pid, for the reaper. */
    private void writeGroups() throws IOException {
        StringBuilder b = new StringBuilder();
        for (Process p : running.values()) {
            b.append(p.pid()).append('\n');
        }
        Path tmp = groups.resolveSibling(groups.getFileName() + ".tmp");
        Files.writeString(tmp, b);
        Files.move(tmp, groups, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private Process launch(ServerNode n) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--pdeathsig", "KILL"));
        if (asPostgresUser) {
            cmd.addAll(List.of("--reuid", "postgres", "--regid", "postgres", "--clear-groups"));
        }
        cmd.add("--");
        // fsync off: a kill -9 of the server keeps what the kernel has (only a machine crash would lose it)
        Path home = homes.get(n.id());
        cmd.addAll(List.of(bin.resolve("postgres").toString(), "-D", home.resolve("data").toString(),
                "-p", Integer.toString(n.clientPort()), "-c", "listen_addresses=127.0.0.1",
                "-c", "unix_socket_directories=" + home, "-c", "max_connections=400",
                "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "logging_collector=off"));
        if (replication == PgReplication.REMOTE_APPLY && n.id() == 1) {
            // a commit waits until a replica has applied it (whichever replica answers first)
            cmd.addAll(List.of("-c", "synchronous_standby_names=*", "-c", "synchronous_commit=remote_apply"));
        }
        if (isReplica(n)) {
            java.net.InetSocketAddress to = routing.quorum(n, nodes.get(0));
            cmd.addAll(List.of("-c", "primary_conninfo=host=" + to.getHostString() + " port=" + to.getPort()
                    + " user=" + USER + " application_name=pg" + n.id()));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(n.logFile().toFile()));
        clocks.environment(n, pb);
        return ChildProcesses.spawn(pb, "postgres " + n.id());
    }

    /**
     * The JDBC URL of a server, or of a proxy in front of it ({@code address} is host:port); of several
     * ({@code host:port,host:port}), the driver's multi-host form that connects to whichever is the primary now,
     * trying them in order: what an application does to follow a failover without a proxy of its own.
     */
    public static String url(String address, Duration connectTimeout, Duration socketTimeout) {
        return "jdbc:postgresql://" + address + "/postgres?user=" + USER + "&connectTimeout="
                + Math.max(1, connectTimeout.toSeconds()) + "&socketTimeout=" + Math.max(0, socketTimeout.toSeconds())
                + "&tcpKeepAlive=true&ApplicationName=lockchaos"
                + (address.contains(",") ? "&targetServerType=primary&hostRecheckSeconds=1" : "");
    }

    /** Whether the server answers a query within about a second. */
    public static boolean answers(String address) {
        try (Connection c = DriverManager.getConnection(url(address, Duration.ofSeconds(1), Duration.ofSeconds(2)))) {
            return c.createStatement().execute("SELECT 1");
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ServerNode n : nodes) {
            while (!answers(n.clientAddress())) {
                Process p = running.get(n.id());
                if (p != null && !p.isAlive()) {
                    throw new EnvironmentProblem("postgres " + n.id() + " exited with "
                            + p.exitValue() + " (see " + n.logFile() + ")");
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("postgres " + n.id() + " did not answer on " + n.clientAddress() + " within "
                            + timeout.toMillis() + " ms (see " + n.logFile() + ")");
                }
                Thread.sleep(50);
            }
        }
    }

    @Override
    public List<ServerNode> nodes() {
        return nodes;
    }

    /** The postmaster's pid. */
    public long pid(ServerNode n) {
        Process p = running.get(n.id());
        if (p == null) {
            throw new IllegalStateException("postgres " + n.id() + " is not running");
        }
        return p.pid();
    }

    /** SIGKILLs the postmaster and every process under it, and waits until they are gone. */
    @Override
    public synchronized void kill(ServerNode n) {
        Process p = running.remove(n.id());
        if (p != null) {
            killTree(p);
        }
    }

    private static void killTree(Process p) {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        p.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
        try {
            p.waitFor(10, TimeUnit.SECONDS);
            // polled: onExit of a process that is not our child checks only now and then
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (tree.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts a killed server again on its folder (crash recovery) and waits until it answers. */
    @Override
    public synchronized void restart(ServerNode n) throws IOException {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (running.containsKey(n.id())) {
            throw new IllegalStateException("postgres " + n.id() + " is running; kill it first");
        }
        if (fenced.contains(n.id())) {
            throw new IllegalStateException("postgres " + n.id() + " was fenced by a failover: it stays down");
        }
        running.put(n.id(), launch(n));
        writeGroups();
        awaitAnswer(n, Duration.ofSeconds(30));
    }

    @Override
    public Map<String, Object> failOver(ServerNode to) throws Exception {
        if (replication == PgReplication.NONE) {
            throw new IllegalStateException("these PostgreSQL servers have no replica to fail over to");
        }
        if (!running.containsKey(to.id()) || fenced.contains(to.id())) {
            throw new IllegalStateException("postgres " + to.id() + " is down: it cannot take over");
        }
        Map<String, Object> value = new java.util.LinkedHashMap<>();
        String primaryLsn = null;
        for (ServerNode n : nodes) {
            if (n.id() != to.id() && running.containsKey(n.id()) && primaryLsn == null) {
                // what the old primary had written, if it answers at once (a paused one does not)
                primaryLsn = (String) query(n, "SELECT CASE WHEN pg_is_in_recovery() THEN NULL"
                        + " ELSE pg_current_wal_lsn()::text END", Duration.ofSeconds(2));
            }
        }
        List<Integer> fencedNow = new ArrayList<>();
        for (ServerNode n : nodes) {
            if (n.id() != to.id() && running.containsKey(n.id())) {
                fenced.add(n.id());
                kill(n);
                fencedNow.add(n.id());
            }
        }
        value.put("fenced", fencedNow);
        Duration wait = Duration.ofSeconds(90);
        String replayed = (String) query(to, "SELECT pg_last_wal_replay_lsn()::text", wait);
        value.put("replayed_lsn", replayed);
        if (primaryLsn != null && replayed != null) {
            value.put("primary_lsn", primaryLsn);
            value.put("behind_bytes", query(to, "SELECT pg_wal_lsn_diff('" + primaryLsn + "', '" + replayed
                    + "')::bigint", wait));
        }
        if (!Boolean.TRUE.equals(query(to, "SELECT pg_promote(true, 60)", wait))) {
            throw new IOException("postgres " + to.id() + " did not confirm its promotion (see " + to.logFile()
                    + ")");
        }
        value.put("promoted", to.id());
        return value;
    }

    /** One value from a short query on {@code n}'s own port (not a proxy's); null when it does not answer. */
    private static Object query(ServerNode n, String sql, Duration socketTimeout) {
        try (Connection c = DriverManager.getConnection(url(n.clientAddress(), Duration.ofSeconds(2),
                socketTimeout)); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet r = st.executeQuery(sql)) {
            return r.next() ? r.getObject(1) : null;
        } catch (SQLException e) {
            return null;
        }
    }

    @Override
    public void pause(ServerNode n) {
        signalTree(n, "-STOP");
        try {
            // the reaper must have seen every stopped process before the runner may die: they cannot end by themselves
            Thread.sleep(3 * PgReaper.POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void resume(ServerNode n) {
        signalTree(n, "-CONT");
    }

    /** Signals the postmaster and every process under it (one kill(1), from an argument array). */
    private void signalTree(ServerNode n, String sig) {
        Process p = running.get(n.id());
        if (p == null) {
            throw new IllegalStateException("postgres " + n.id() + " is not running");
        }
        List<String> cmd = new ArrayList<>(List.of("kill", sig, Long.toString(p.pid())));
        p.descendants().forEach(h -> cmd.add(Long.toString(h.pid())));
        try {
            Process k = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            k.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        killAll();
        if (groups != null) {
            try {
                Files.deleteIfExists(groups); // the reaper exits
            } catch (IOException e) {
                // the reaper then outlives the runner by one poll, finds no group alive, and exits
            }
        }
        if (asPostgresUser) {
            for (Path home : homes.values()) {
                deleteTree(home);
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a folder under /tmp: the system cleans it at the latest
        }
    }

    private void killAll() {
        for (Process p : List.copyOf(running.values())) {
            killTree(p);
        }
        running.clear();
    }

    /** The server's version, as {@code postgres --version} prints it, or "unknown". */
    public static String version() {
        Path bin = findBinaries();
        if (bin == null) {
            return "unknown";
        }
        try {
            Process p = new ProcessBuilder(bin.resolve("postgres").toString(), "--version").redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor(5, TimeUnit.SECONDS);
            return out.replace("postgres (PostgreSQL) ", "");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
