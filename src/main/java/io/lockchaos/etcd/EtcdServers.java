package io.lockchaos.etcd;

import io.lockchaos.cluster.ChildProcesses;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Netns;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.PortReservations;
import io.lockchaos.cluster.Roles;
import io.lockchaos.cluster.ScratchFolders;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.cluster.Sessionless;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * 1, 3 or 5 etcd members (Debian's {@code etcd-server}) as child processes on 127.0.0.1, one cluster, each with its
 * own folder {@code baseDir/etcd-N} for its log {@code etcd.log}; their data, 64 MB of preallocated log each, lives in a
 * {@link io.lockchaos.cluster.ScratchFolders scratch folder} deleted when they are closed (or by the next run's sweep
 * after a SIGKILL). Heartbeat 100 ms and election timeout 1 s, etcd's
 * defaults: a lease cannot be shorter than 2 s on them (etcd's minimum TTL is 1.5 election timeouts, in whole seconds).
 *
 * <p>Every member dies with the runner, also after a SIGKILL of the runner: started through util-linux's {@code
 * setpriv --pdeathsig KILL} from one long-lived thread (the kernel sends the parent-death signal when the forking
 * thread ends), as the Redis instances are. A killed member is started again on its data folder and rejoins.
 *
 * <p>Clients reach the members through the run's client proxies like any server (the nodes' {@code clientPort} is
 * the member's client URL port). The members talk to each other directly: etcd tells every member one peer address
 * per member (and derives the member ids from it), so the per-pair proxies that cut ZooKeeper's servers apart have no
 * place to go; members in network namespaces of their own ({@link #create(Path, int, io.lockchaos.cluster.Netns)})
 * are cut apart by iptables rules inside them instead. Nodes are {@link ServerNode}s with {@code id}, {@code host}, {@code clientPort}, {@code dataDir} and
 * {@code logFile} set.
 */
public final class EtcdServers implements Cluster, Killable, Pausable, Sessionless,
        Roles {
    /** The one line that says what is missing and how to get it. */
    public static final String MISSING = "the etcd recipes need etcd (Debian: apt-get install etcd-server; or set"
            + " LOCKCHAOS_ETCD to its path)";

    private final List<ServerNode> nodes;
    private final Path scratch;
    private final Map<Integer, Integer> peerPorts;
    private final String executable;
    private final String token;
    private final ChildProcesses processes = new ChildProcesses("etcd");
    /** The members' network namespaces, or null when they share the runner's loopback. */
    private final Netns netns;
    private final Thread shutdownHook = new Thread(this::onExit, "lockchaos-etcd-shutdown");
    private boolean closed;

    private EtcdServers(List<ServerNode> nodes, Path scratch, Map<Integer, Integer> peerPorts, String executable,
                        Netns netns) {
        this.nodes = List.copyOf(nodes);
        this.scratch = scratch;
        this.peerPorts = Map.copyOf(peerPorts);
        this.executable = executable;
        this.netns = netns;
        // a cluster token of its own: a member can never join another run's cluster on a reused port
        this.token = "lockchaos-" + Long.toHexString(new java.util.SplittableRandom().nextLong());
    }

    /**
     * The etcd this machine has, or null: {@code LOCKCHAOS_ETCD} (or the system property {@code lockchaos.etcd}),
     * else {@code etcd} on the PATH, else /usr/bin/etcd.
     */
    public static String findExecutable() {
        // the property lets a test in this JVM name a missing etcd, which it cannot do with the environment
        String env = System.getProperty("lockchaos.etcd", System.getenv("LOCKCHAOS_ETCD"));
        if (env != null && !env.isBlank()) {
            return Files.isExecutable(Path.of(env)) ? env : null;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "etcd"))) {
                    return Path.of(dir, "etcd").toString();
                }
            }
        }
        return Files.isExecutable(Path.of("/usr/bin/etcd")) ? "/usr/bin/etcd" : null;
    }

    /**
     * Picks free loopback ports and lays out {@code size} members' folders under {@code baseDir}; starts nothing.
     *
     * @throws IOException when etcd is missing ({@link #MISSING})
     */
    public static EtcdServers create(Path baseDir, int size) throws IOException {
        return create(baseDir, size, null);
    }

    /**
     * As {@link #create(Path, int)}, each member in its own network namespace of {@code netns} (null: none) on its
     * namespace's address and etcd's usual ports, 2379 for clients and 2380 for peers: members then talk over the
     * namespaces' links, which iptables rules inside them cut ({@code cluster netns}). The namespaces are removed
     * when the members are closed.
     */
    public static EtcdServers create(Path baseDir, int size, Netns netns) throws IOException {
        if (netns != null && netns.size() != size) {
            throw new IllegalArgumentException(size + " members need " + size + " namespaces, not " + netns.size());
        }
        if (size != 1 && size != 3 && size != 5) {
            throw new IllegalArgumentException("nodes: expected 1, 3 or 5 etcd members, got " + size);
        }
        String exe = findExecutable();
        if (exe == null) {
            throw new IOException(MISSING);
        }
        List<ServerNode> nodes = new ArrayList<>();
        Map<Integer, Integer> peers = new java.util.LinkedHashMap<>();
        Path scratch = ScratchFolders.create("lockchaos-etcd-");
        for (int id = 1; id <= size; id++) {
            Path dir = baseDir.toAbsolutePath().resolve("etcd-" + id);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("data-folder.txt"), scratch.resolve("etcd-" + id) + " (deleted when the"
                    + " run ends)\n");
            nodes.add(new ServerNode(id, netns == null ? "127.0.0.1" : netns.address(id),
                    netns == null ? PortReservations.freePort() : CLIENT_PORT, 0, 0, dir, dir.resolve("etcd.log")));
            peers.put(id, netns == null ? PortReservations.freePort() : PEER_PORT);
        }
        return new EtcdServers(nodes, scratch, peers, exe, netns);
    }

    /** The client URL of a member, as the etcd client takes it. */
    public static String url(String hostPort) {
        return "http://" + hostPort;
    }

    /** etcd's usual ports, which a member in a namespace of its own has to itself. */
    private static final int CLIENT_PORT = 2379;
    private static final int PEER_PORT = 2380;

    private String peerUrl(int id) {
        return "http://" + nodes.get(id - 1).host() + ":" + peerPorts.get(id);
    }

    /** The members' namespaces, or null when they run on the runner's loopback. */
    public Netns netns() {
        return netns;
    }

    /** What a member's clients renew (their leases) runs in the background: a paused client's traffic must stop. */
    @Override
    public boolean sessionless() {
        return false;
    }

    @Override
    public synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        for (ServerNode n : nodes) {
            processes.put(n.id(), launch(n));
        }
    }

    private Process launch(ServerNode n) throws IOException {
        StringBuilder cluster = new StringBuilder();
        for (ServerNode m : nodes) {
            cluster.append(cluster.isEmpty() ? "" : ",").append(name(m)).append('=').append(peerUrl(m.id()));
        }
        String client = url(n.clientAddress());
        List<String> cmd = List.of("setpriv", "--pdeathsig", "KILL", "--", executable,
                "--name", name(n), "--data-dir", scratch.resolve(name(n)).toString(),
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peerUrl(n.id()), "--initial-advertise-peer-urls", peerUrl(n.id()),
                "--initial-cluster", cluster.toString(), "--initial-cluster-state", "new",
                "--initial-cluster-token", token, "--heartbeat-interval", "100", "--election-timeout", "1000",
                "--logger", "zap", "--log-outputs", "stderr");
        ProcessBuilder pb = new ProcessBuilder(netns == null ? cmd : netns.inside(n.id(), cmd))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(n.logFile().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return ChildProcesses.spawn(pb, "etcd " + n.id());
    }

    private static String name(ServerNode n) {
        return "etcd-" + n.id();
    }

    /** Waits until every member says it is healthy (a member is once the cluster has a leader). */
    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ServerNode n : nodes) {
            while (!healthy(n.clientAddress())) {
                Process p;
                synchronized (this) {
                    p = processes.get(n.id());
                }
                if (p != null && !p.isAlive()) {
                    throw new EnvironmentProblem("etcd " + n.id() + " exited with " + p.exitValue() + lastWords(n)
                            + " (see " + n.logFile() + ")");
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("etcd " + n.id() + " was not healthy on " + n.clientAddress() + " within "
                            + timeout.toMillis() + " ms (see " + n.logFile() + ")");
                }
                Thread.sleep(50);
            }
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    /** Whether the member at {@code hostPort} answers its /health with {@code "health":"true"} within 1 s. */
    public static boolean healthy(String hostPort) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url(hostPort) + "/health"))
                    .timeout(Duration.ofSeconds(1)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().replace(" ", "").contains("\"health\":\"true\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Asks the member's status (the gRPC gateway's {@code /v3/maintenance/status}): it leads when it is the leader. */
    @Override
    public String role(ServerNode n, int timeoutMillis) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url(n.clientAddress())
                    + "/v3/maintenance/status")).timeout(Duration.ofMillis(timeoutMillis))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            com.fasterxml.jackson.databind.JsonNode status = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(r.body());
            String member = status.path("header").path("member_id").asText("");
            String leader = status.path("leader").asText("");
            if (r.statusCode() != 200 || member.isEmpty() || leader.isEmpty() || leader.equals("0")) {
                return "down"; // no leader known to it: it neither leads nor follows
            }
            return member.equals(leader) ? "leader" : "follower";
        } catch (IOException e) {
            return "down";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "down";
        }
    }

    @Override
    public List<ServerNode> nodes() {
        return nodes;
    }

    /** The operating-system pid of a running member. */
    public synchronized long pid(ServerNode n) {
        return processes.pid(n.id());
    }

    @Override
    public synchronized void kill(ServerNode n) {
        processes.kill(n.id());
    }

    /** Starts a killed member again on its data folder; it rejoins the cluster. Returns once it answers. */
    @Override
    public synchronized void restart(ServerNode n) throws IOException {
        processes.requireStopped(n.id());
        processes.put(n.id(), launch(n));
        // healthy or not: a lone member of three never is
        processes.awaitRestart(n.id(), () -> n.answers(200), 10, n.logFile().toString());
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
        Netns.closeOrWarn(netns, "the etcd members'");
    }

    /** A normal exit without {@link #close}: the members go, and so do their namespaces (a SIGKILL leaves those to
     * {@link io.lockchaos.cluster.Netns#sweep}). */
    private void onExit() {
        killAll();
        Netns.closeOrWarn(netns, "the etcd members'");
    }


    /** Kills every member and deletes their data (what a run keeps of them is their logs). */
    private synchronized void killAll() {
        processes.killAll();
        ScratchFolders.delete(scratch);
    }

    /** The version etcd prints, e.g. {@code 3.4.23}, or "missing" / "unknown". */
    public static String version() {
        return ChildProcesses.version(findExecutable(), "etcd Version: ([0-9.]+)");
    }

    /** The last non-blank line of a member's log, quoted, or empty. */
    private static String lastWords(ServerNode n) {
        try {
            List<String> lines = Files.readAllLines(n.logFile());
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    String l = lines.get(i).trim();
                    return ": \"" + (l.length() > 300 ? l.substring(0, 300) + "..." : l) + "\"";
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing written
        }
        return "";
    }
}
