package io.lockchaos.zookeeper;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.DockerException;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ContainerAddresses;
import io.lockchaos.cluster.Docker;
import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.PeerRouting;
import io.lockchaos.cluster.ServerNamespaces;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.zookeeper.server.ChildServer;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.startupcheck.IsRunningStartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * 1, 3 or 5 ZooKeeper servers as Docker containers on one Testcontainers {@link Network}, running this project's own
 * {@link ChildServer} (and so {@link RoutedQuorumPeerMain} when the peers go through proxies) on a plain JRE image:
 * what a server loads of the current JVM's classpath ({@link ServerJars}) is copied into each container.
 * Server N has the network alias {@link #alias}(N) and listens on the container ports {@value #CLIENT_PORT},
 * {@value #QUORUM_PORT} and {@value #ELECTION_PORT}; its client port is published on a fixed host port chosen at
 * {@link Builder#build()}, so that the connect string stays valid when a killed server is started again (Docker may
 * pick a different random port on every start).
 *
 * <p>{@link #kill} is {@code docker kill} (SIGKILL) and {@link #restart} starts the same container again: its data
 * directory, in the container's own file system, survives. {@link #pause} and {@link #resume} are {@code docker
 * pause} / {@code unpause} (the cgroup freezer: like SIGSTOP, but for every process in the container). There is no
 * parent watchdog inside the containers (parent pid 0): Testcontainers' reaper removes them when this JVM is gone, and
 * a shutdown hook removes them on a normal exit. {@link #close()} writes each container's whole log (across restarts)
 * to {@code baseDir/node-N/server.log}, then removes the containers.
 *
 * <p>A {@link PeerRouting} other than {@link PeerRouting#DIRECT} must give addresses reachable from inside the
 * network, such as those of a {@code ProxyNetwork} on the Toxiproxy container
 * ({@code io.lockchaos.nemesis.ToxiproxyBackends.container}); a loopback address is refused. The nodes' {@code host}
 * and {@code clientPort} are the Docker host and the published port (what {@link FourLetterWords} and host-side
 * clients dial); their {@code quorumPort} and {@code electionPort} are the container ports, reached on the alias;
 * {@code dataDir} is null (it lives in the container). Needs Docker: check {@link Docker#available()} first.
 */
public final class ContainerEnsemble implements Cluster, Killable, Pausable, FourLetterRoles {
    /**
     * The runtime image where a registry can be reached: any image with {@code java} 17+ on the PATH will do. Where
     * {@code docker/build-images} has made {@link Docker#LOCAL_JRE} from Debian's packages, that is used instead.
     */
    public static final String DEFAULT_IMAGE = "eclipse-temurin:17-jre";
    public static final int CLIENT_PORT = 2181;
    public static final int QUORUM_PORT = 2888;
    public static final int ELECTION_PORT = 3888;
    /** How a proxy on the servers' network reaches them. */
    public static final ContainerAddresses ADDRESSES = new ContainerAddresses("zk", CLIENT_PORT, QUORUM_PORT,
            ELECTION_PORT);

    private final Path baseDir;
    private final List<ServerNode> nodes;
    private final Network network;
    private final boolean ownsNetwork;
    private final int tickTime;
    private final Map<String, String> extraConfig;
    private final PeerRouting routing;
    private final String image;
    private final List<Path> classpath;
    private final Map<Integer, GenericContainer<?>> containers = new LinkedHashMap<>();
    private final Set<Integer> killed = new HashSet<>();
    private final Set<Integer> paused = new HashSet<>();
    private final Thread shutdownHook = new Thread(this::removeAll, "lockchaos-containers-shutdown");
    private boolean closed;

    private ContainerEnsemble(Builder b, List<ServerNode> nodes) {
        this.baseDir = b.baseDir;
        this.nodes = List.copyOf(nodes);
        this.network = b.network != null ? b.network : Docker.network();
        this.ownsNetwork = b.network == null;
        this.tickTime = b.tickTime;
        this.extraConfig = Map.copyOf(b.extra);
        this.routing = b.routing;
        this.image = b.image;
        this.classpath = List.copyOf(b.classpath);
    }

    /** @param baseDir a host folder for each server's zoo.cfg copy and, after {@link #close()}, its log */
    public static Builder builder(Path baseDir) {
        return new Builder(baseDir);
    }

    /** The network alias of server {@code id}: {@code zk1}, {@code zk2}, ... */
    public static String alias(int id) {
        return ADDRESSES.alias(id);
    }

    /** Options of a container ensemble. */
    public static final class Builder {
        private final Path baseDir;
        private int size = 3;
        private int tickTime = 200;
        private final Map<String, String> extra = new LinkedHashMap<>();
        private PeerRouting routing = PeerRouting.DIRECT;
        private Network network;
        private String image;
        private List<Path> classpath;

        private Builder(Path baseDir) {
            this.baseDir = baseDir.toAbsolutePath(); // child processes run in folders of their own
        }

        /** 1, 3 or 5 servers (default 3). */
        public Builder size(int n) {
            size = ZooCfg.checkSize(n);
            return this;
        }

        /** ZooKeeper's tickTime in ms (default 200: sessions of 0.4 to 4 s). */
        public Builder tickTime(int ms) {
            tickTime = ZooCfg.checkTickTime(ms);
            return this;
        }

        /** Any other zoo.cfg key. */
        public Builder config(String key, String value) {
            extra.put(key, value);
            return this;
        }

        /** How servers reach their peers (default direct, on the aliases); see the class comment. */
        public Builder routing(PeerRouting r) {
            routing = r;
            return this;
        }

        /**
         * The network to join (for example the Toxiproxy container's). Default: a new one, removed on close; a given
         * network is left for its owner to close.
         */
        public Builder network(Network n) {
            network = n;
            return this;
        }

        /** The runtime image (default {@link Docker#LOCAL_JRE} if the engine has it, else {@value #DEFAULT_IMAGE}). */
        public Builder image(String name) {
            image = name;
            return this;
        }

        /**
         * The jars and class folders copied into each container (default: what a server loads of this JVM's
         * {@code java.class.path}, see {@link ServerJars}).
         */
        public Builder classpath(List<Path> entries) {
            classpath = List.copyOf(entries);
            return this;
        }

        /**
         * Asks Docker for its host address, picks the published client ports and lays out the node folders; starts
         * nothing. The ports are free on this machine: with a remote Docker host that is only a guess, and a clash
         * fails {@link #start()} with Docker's "port is already allocated".
         *
         * @throws IllegalStateException when Docker is not available
         */
        public ContainerEnsemble build() throws IOException {
            Docker.prepare();
            if (image == null) {
                image = Docker.image(Docker.LOCAL_JRE, DEFAULT_IMAGE);
            }
            if (classpath == null) {
                classpath = ServerJars.of(currentClasspath());
            }
            String host = DockerClientFactory.instance().dockerHostIpAddress();
            List<ServerNode> nodes = new ArrayList<>();
            for (int id = 1; id <= size; id++) {
                Path dir = baseDir.resolve("node-" + id);
                Files.createDirectories(dir);
                nodes.add(new ServerNode(id, host, freePort(), QUORUM_PORT, ELECTION_PORT, null,
                        dir.resolve("server.log")));
            }
            return new ContainerEnsemble(this, nodes);
        }
    }

    private static List<Path> currentClasspath() {
        List<Path> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.isEmpty() && Files.exists(Path.of(e))) {
                cp.add(Path.of(e).toAbsolutePath());
            }
        }
        return cp;
    }

    /** A port free on this machine now. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public Network network() {
        return network;
    }

    @Override
    public List<ServerNode> nodes() {
        return nodes;
    }

    /** The Docker id of a server's container (for {@code docker logs} and the like). */
    public synchronized String containerId(ServerNode n) {
        GenericContainer<?> c = containers.get(n.id());
        if (c == null || c.getContainerId() == null) {
            throw new IllegalStateException("server " + n.id() + " has no container; call start() first");
        }
        return c.getContainerId();
    }

    /** Creates and starts every container in parallel; returns when each client port listens. */
    @Override
    public synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("ensemble closed");
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        for (ServerNode n : nodes) {
            containers.put(n.id(), container(n, config(n)));
        }
        try {
            Startables.deepStart(containers.values()).get();
        } catch (ExecutionException e) {
            throw new IOException("could not start the ZooKeeper containers: " + causes(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the ZooKeeper containers", e);
        }
    }

    /**
     * Each distinct message down the cause chain: Testcontainers' own ("Container startup failed for image ...") says
     * nothing of why, which only the innermost causes tell (a refused port binding, a wait that timed out).
     */
    static String causes(Throwable e) {
        List<String> seen = new ArrayList<>();
        for (Throwable t = e; t != null && seen.size() < 8; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
            if (!seen.contains(m)) {
                seen.add(m);
            }
        }
        return String.join(": ", seen);
    }

    /** Writes zoo.cfg (and a copy under node-N/) and returns its text. */
    private String config(ServerNode n) throws IOException {
        String text = ZooCfg.text(n, nodes, tickTime, "/data", CLIENT_PORT, "0.0.0.0",
                (from, to) -> from.id() == to.id() ? direct(to, QUORUM_PORT) : quorum(from, to),
                (from, to) -> from.id() == to.id() ? direct(to, ELECTION_PORT) : election(from, to), extraConfig);
        Files.writeString(baseDir.resolve("node-" + n.id()).resolve("zoo.cfg"), text, StandardCharsets.UTF_8);
        return text;
    }

    private static InetSocketAddress direct(ServerNode n, int port) {
        return InetSocketAddress.createUnresolved(alias(n.id()), port);
    }

    private InetSocketAddress quorum(ServerNode from, ServerNode to) {
        return routing == PeerRouting.DIRECT ? direct(to, QUORUM_PORT) : inNetwork(routing.quorum(from, to));
    }

    private InetSocketAddress election(ServerNode from, ServerNode to) {
        return routing == PeerRouting.DIRECT ? direct(to, ELECTION_PORT) : inNetwork(routing.election(from, to));
    }

    private static InetSocketAddress inNetwork(InetSocketAddress a) {
        String h = a.getHostString();
        if (h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("0.0.0.0")) {
            throw new IllegalArgumentException("routing: " + h + ":" + a.getPort() + " is the container itself from"
                    + " inside a container; route peers through the Toxiproxy container (ToxiproxyBackends.container)");
        }
        return a;
    }

    private GenericContainer<?> container(ServerNode n, String zooCfg) {
        List<String> cmd = new ArrayList<>();
        cmd.add("java");
        cmd.addAll(ZooCfg.jvmFlags());
        // log in this JVM's zone: ServerLogs places the servers' log times on the history's clock
        cmd.add("-Duser.timezone=" + java.time.ZoneId.systemDefault().getId());
        // as LocalEnsemble: each peer dials back through its own proxy (see RoutedQuorumPeerMain)
        String advertise = ZooCfg.advertiseFlag(n, nodes, routing != PeerRouting.DIRECT, this::election);
        if (advertise != null) {
            cmd.add(advertise);
        }
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image));
        List<String> cp = new ArrayList<>();
        for (int i = 0; i < classpath.size(); i++) {
            Path entry = classpath.get(i);
            String inside = "/lockchaos/cp/" + i + "-" + entry.getFileName();
            c.withCopyFileToContainer(MountableFile.forHostPath(entry), inside);
            cp.add(inside);
        }
        cmd.addAll(List.of("-cp", String.join(":", cp), ChildServer.class.getName(), "0", "/conf/zoo.cfg"));
        c.withNetwork(network)
                .withNetworkAliases(alias(n.id()))
                .withExposedPorts(CLIENT_PORT)
                .withCopyToContainer(Transferable.of(zooCfg), "/conf/zoo.cfg")
                .withCopyToContainer(Transferable.of(Integer.toString(n.id())), "/data/myid")
                .withCommand(cmd.toArray(String[]::new))
                .waitingFor(Wait.forListeningPort().withStartupTimeout(Duration.ofSeconds(120)))
                // Testcontainers' own check that a container runs gives up after 30 s, which three containers started
                // at once on two loaded cores once used up (the start failed after 29.5 s): the same 120 s as the wait
                .withStartupCheckStrategy(new IsRunningStartupCheckStrategy().withTimeout(Duration.ofSeconds(120)));
        c.setPortBindings(List.of(n.clientPort() + ":" + CLIENT_PORT));
        Docker.confine(c);
        return c;
    }

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
    }

    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Integer, String> modes = new LinkedHashMap<>();
        while (true) {
            if (FourLetterWords.serving(nodes, modes)) {
                return;
            }
            for (ServerNode n : nodes) {
                InspectContainerResponse.ContainerState s = runningState(n);
                if (s != null && !Boolean.TRUE.equals(s.getRunning())) {
                    throw new IOException("server " + n.id() + "'s container exited with code "
                            + s.getExitCodeLong() + "; its log: docker logs " + containerId(n));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("ensemble not healthy after " + timeout.toMillis() + " ms: modes " + modes);
            }
            Thread.sleep(100);
        }
    }

    /** The container's state if it is meant to be running (not killed here), else null. */
    private synchronized InspectContainerResponse.ContainerState runningState(ServerNode n) {
        return killed.contains(n.id()) ? null : docker().inspectContainerCmd(containerId(n)).exec().getState();
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

    /**
     * The containers' network namespaces, entered with {@code nsenter} and this machine's iptables and tc (the JRE image
     * has neither), for cutting the servers apart inside the kernel ({@code --partitioner iptables}); needs root on
     * the Docker host, so a local engine. A server's address is its container's on the ensemble's network; the pid is
     * looked up at each use, since a restarted container has a new one.
     */
    @Override
    public ServerNamespaces namespaces() {
        return new ServerNamespaces() {
            @Override
            public int size() {
                return nodes.size();
            }

            @Override
            public String address(int id) {
                return inspect(id).getNetworkSettings().getNetworks().values().stream()
                        .map(com.github.dockerjava.api.model.ContainerNetwork::getIpAddress)
                        .filter(ip -> ip != null && !ip.isEmpty()).findFirst()
                        .orElseThrow(() -> new IllegalStateException("server " + id + "'s container has no address"));
            }

            @Override
            public List<String> inside(int id, List<String> command) {
                Long pid = inspect(id).getState().getPidLong();
                if (pid == null || pid <= 0) {
                    throw new IllegalStateException("server " + id + "'s container is not running");
                }
                List<String> out = new ArrayList<>(List.of("nsenter", "-t", Long.toString(pid), "-n"));
                out.addAll(command);
                return out;
            }

            private InspectContainerResponse inspect(int id) {
                return docker().inspectContainerCmd(containerId(nodes.get(id - 1))).exec();
            }
        };
    }

    /** {@code docker kill} (SIGKILL), and waits until the container has stopped. A paused server dies too. */
    @Override
    public synchronized void kill(ServerNode n) {
        if (killed.contains(n.id())) {
            return;
        }
        String id = containerId(n);
        try {
            docker().killContainerCmd(id).exec();
        } catch (DockerException e) {
            if (!paused.contains(n.id())) {
                throw e;
            }
            docker().unpauseContainerCmd(id).exec(); // engines that refuse to kill a frozen container
            docker().killContainerCmd(id).exec();
        }
        paused.remove(n.id());
        killed.add(n.id());
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (Boolean.TRUE.equals(docker().inspectContainerCmd(id).exec().getState().getRunning())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("server " + n.id() + "'s container still runs 10 s after docker kill");
            }
            sleepQuietly(20);
        }
    }

    /** Starts the killed server's container again, on the same data, ports and configuration. */
    @Override
    public synchronized void restart(ServerNode n) {
        if (!killed.contains(n.id())) {
            throw new IllegalStateException("server " + n.id() + " is running; kill it first");
        }
        docker().startContainerCmd(containerId(n)).exec();
        killed.remove(n.id());
    }

    /** {@code docker pause}: every process in the container is frozen. */
    @Override
    public synchronized void pause(ServerNode n) {
        if (killed.contains(n.id())) {
            throw new IllegalStateException("server " + n.id() + " is not running");
        }
        docker().pauseContainerCmd(containerId(n)).exec();
        paused.add(n.id());
    }

    @Override
    public synchronized void resume(ServerNode n) {
        docker().unpauseContainerCmd(containerId(n)).exec();
        paused.remove(n.id());
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Saves each container's log to node-N/server.log, then removes the containers (and the network if owned). */
    private synchronized void removeAll() {
        for (Map.Entry<Integer, GenericContainer<?>> e : containers.entrySet()) {
            GenericContainer<?> c = e.getValue();
            if (c.getContainerId() == null) {
                continue;
            }
            try {
                if (paused.remove(e.getKey())) {
                    docker().unpauseContainerCmd(c.getContainerId()).exec();
                }
                Files.writeString(nodes.get(e.getKey() - 1).logFile(), c.getLogs(), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException ex) {
                // the log is a courtesy; removing the container matters more
            }
            try {
                c.stop();
            } catch (RuntimeException ex) {
                // already gone; the reaper removes whatever is left
            }
        }
        containers.clear();
        if (ownsNetwork) {
            try {
                network.close();
            } catch (RuntimeException ex) {
                // the reaper removes it
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // already shutting down, or never started
        }
    }
}
