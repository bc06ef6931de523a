package io.lockchaos.hazelcast;

import io.lockchaos.cluster.ChildProcesses;
import io.lockchaos.cluster.ChildServers;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.Netns;
import io.lockchaos.cluster.PortReservations;
import io.lockchaos.cluster.ServerClasspath;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.cluster.Sessionless;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Hazelcast members as child JVMs ({@link HazelcastMember} on the resolved Hazelcast release), each bound to one
 * loopback port (or, with {@link Netns}, its namespace's address and Hazelcast's usual port 5701), joined to each
 * other by TCP-IP, each with its folder {@code baseDir/hazelcast-N} for its log {@code hazelcast.log}. With CP members
 * (3 or 5) the CP Subsystem runs Raft over all of them; with none, FencedLock runs in Hazelcast's "unsafe mode", on
 * partitions with one backup and no consensus. Members keep nothing on disk.
 *
 * <p>Every member dies with the runner, also after a SIGKILL of the runner: started through util-linux's {@code
 * setpriv --pdeathsig KILL} from one long-lived thread (the kernel sends the parent-death signal when the forking
 * thread ends), as etcd's members are. A killed member starts again as a new member (Hazelcast's CP state is in
 * memory only) and promotes itself into the CP Subsystem once its old self is removed ({@link HazelcastMember}).
 *
 * <p>Clients reach the members through the run's client proxies; members talk to each other directly, on the
 * addresses the member list gives (a member is known by one address, so there is no per-pair proxy to put between
 * two of them): members in network namespaces of their own are cut apart by iptables rules inside them.
 */
public final class HazelcastMembers extends ChildServers implements Sessionless {
    /** Hazelcast's usual port, which a member in a namespace of its own has to itself. */
    private static final int PORT = 5701;
    /** What the member's JVM opens of the JDK for Hazelcast (its documented flags), so that its log stays quiet. */
    private static final List<String> OPENS = List.of("--add-modules", "java.se", "--add-exports",
            "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens",
            "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

    private final List<Path> classpath;
    private final int cpMembers;
    private final int sessionTtlSeconds;

    private HazelcastMembers(List<ServerNode> nodes, List<Path> classpath, int cpMembers, int sessionTtlSeconds,
                             Netns netns) {
        super(nodes, netns, "Hazelcast member", "the Hazelcast members'");
        this.classpath = List.copyOf(classpath);
        this.cpMembers = cpMembers;
        this.sessionTtlSeconds = sessionTtlSeconds;
    }

    /**
     * Lays out {@code size} members' folders under {@code baseDir} on free loopback ports (or in {@code netns}'s
     * namespaces, null for none); starts nothing.
     *
     * @param hazelcast the Hazelcast release's jars
     * @param cpMembers the CP Subsystem's members: {@code size}, or 0 for the unsafe mode
     * @param sessionTtlSeconds how long a CP session outlives its client's last heartbeat
     */
    public static HazelcastMembers create(Path baseDir, int size, List<Path> hazelcast, int cpMembers,
                                          int sessionTtlSeconds, Netns netns) throws IOException {
        if (netns != null && netns.size() != size) {
            throw new IllegalArgumentException(size + " members need " + size + " namespaces, not " + netns.size());
        }
        if (cpMembers != 0 && cpMembers != size) {
            throw new IllegalArgumentException("CP members: 0 or all " + size + " members, not " + cpMembers);
        }
        List<ServerNode> nodes = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            Path dir = baseDir.toAbsolutePath().resolve("hazelcast-" + id);
            Files.createDirectories(dir);
            nodes.add(new ServerNode(id, netns == null ? "127.0.0.1" : netns.address(id),
                    netns == null ? PortReservations.freePort() : PORT, 0, 0, dir, dir.resolve("hazelcast.log")));
        }
        List<Path> cp = new ArrayList<>(hazelcast);
        // the member's main class from this JVM's classes: its package (a filtered copy of the shaded jar, a few
        // kilobytes; a class folder whole)
        cp.addAll(ServerClasspath.of(ServerClasspath.runnerClasspath(),
                List.of(HazelcastMember.class.getPackageName().replace('.', '/') + "/")));
        return new HazelcastMembers(nodes, cp, cpMembers, sessionTtlSeconds, netns);
    }

    /** The CP Subsystem's members: all, or 0 for the unsafe mode. */
    public int cpMembers() {
        return cpMembers;
    }

    /** A client renews its CP session in the background: a paused client's traffic must stop. */
    @Override
    public boolean sessionless() {
        return false;
    }

    @Override
    protected Process launch(ServerNode n) throws IOException {
        String members = nodes().stream().map(ServerNode::clientAddress).collect(Collectors.joining(","));
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--pdeathsig", "KILL", "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true"));
        cmd.addAll(OPENS);
        cmd.addAll(List.of("-cp", classpath.stream().map(Path::toString).collect(Collectors.joining(":")),
                HazelcastMember.class.getName(), n.host(), Integer.toString(n.clientPort()), members,
                Integer.toString(cpMembers), Integer.toString(sessionTtlSeconds)));
        ProcessBuilder pb = new ProcessBuilder(netns() == null ? cmd : netns().inside(n.id(), cmd))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(n.logFile().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return ChildProcesses.spawn(pb, "Hazelcast member " + n.id());
    }

    /**
     * Waits until every member has joined the cluster and, with CP members, until each says the CP Subsystem is
     * initialized (what its log says: a member has no other way to say it that a client without Hazelcast can ask).
     */
    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ServerNode n : nodes()) {
            while (!saidAll(n, cpMembers > 0 ? List.of(STARTED, CP_READY) : List.of(STARTED))) {
                Process p = process(n);
                if (p != null && !p.isAlive()) {
                    throw new EnvironmentProblem("Hazelcast member " + n.id() + " exited with " + p.exitValue()
                            + " (see " + n.logFile() + ")");
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("Hazelcast member " + n.id() + " was not " + (cpMembers > 0
                            ? "in an initialized CP Subsystem" : "started") + " within " + timeout.toMillis()
                            + " ms (see " + n.logFile() + ")");
                }
                Thread.sleep(100);
            }
        }
    }

    private static final String STARTED = "lockchaos: member started";
    private static final String CP_READY = "CP Subsystem is initialized";

    private static boolean saidAll(ServerNode n, List<String> lines) {
        try {
            String log = Files.readString(n.logFile());
            return lines.stream().allMatch(log::contains);
        } catch (IOException e) {
            return false;
        }
    }
}
