package io.lockchaos.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The network of one {@code --cluster netns} run: a network namespace per server, each with its own address on a
 * /24 of 10.213.0.0/16, joined to the runner's namespace by a veth pair on a bridge the run creates. Servers bind their
 * own address; the runner reaches them over the bridge (the client proxies, the four-letter words); the servers reach
 * each other directly, so cutting them apart is a matter of iptables rules inside their namespaces (see
 * {@code io.lockchaos.nemesis.IptablesPartitioner}), as Jepsen does on real machines.
 *
 * <p>Everything is named after the runner's pid ({@code lockchaos-PID-SEQ-nI} namespaces, {@code lcb-PID-SEQ} bridge
 * and {@code lcv-PID-SEQ-I} links, pid and sequence in base 36), so {@link #sweep} can remove what a killed runner left
 * and nothing else. {@link #close} removes what this one made. Needs root (CAP_NET_ADMIN) and the {@code ip} and
 * {@code iptables} commands; {@link #unavailable} says in one line what is missing.
 */
public final class Netns implements ServerNamespaces, AutoCloseable {
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final Object SUBNETS = new Object();
    private static final String IP = "ip";

    private final String run;
    private final int subnet;
    private final int size;
    private final String bridge;
    private final boolean forwardRule;
    private boolean closed;

    private Netns(String run, int subnet, int size, boolean forwardRule) {
        this.run = run;
        this.subnet = subnet;
        this.size = size;
        this.bridge = "lcb-" + run;
        this.forwardRule = forwardRule;
    }

    /** Why namespaces cannot be made here, in one line, or null when they can. */
    public static String unavailable() {
        if (!"root".equals(System.getProperty("user.name")) && !isRoot()) {
            return "cluster: netns needs root (to create network namespaces and iptables rules); run as root or use"
                    + " the default cluster: local";
        }
        for (String tool : List.of("ip", "iptables")) {
            if (!onPath(tool)) {
                return "cluster: netns needs the '" + tool + "' command (Debian: apt-get install "
                        + (tool.equals("ip") ? "iproute2" : "iptables") + ")";
            }
        }
        try {
            run(List.of(IP, "netns", "list"));
        } catch (IOException e) {
            return "cluster: netns: network namespaces are not available here (" + e.getMessage() + ")";
        }
        return null;
    }

    private static boolean isRoot() {
        try {
            return Files.readString(Path.of("/proc/self/status")).lines().filter(l -> l.startsWith("Uid:"))
                    .anyMatch(l -> l.split("\\s+")[2].equals("0"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", tool)) || Files.isExecutable(Path.of("/sbin", tool));
    }

    /**
     * Creates namespaces for servers 1..{@code size}, first removing what dead runners left behind.
     *
     * @throws IOException when a command fails; what was made is removed again
     */
    public static Netns create(int size) throws IOException {
        String why = unavailable();
        if (why != null) {
            throw new IOException(why);
        }
        sweep();
        String run = Long.toString(ProcessHandle.current().pid(), 36) + "-"
                + Integer.toString(SEQ.getAndIncrement() % 1296, 36);
        // A subnet is free when no address on the machine uses it, so choosing one and taking it (the bridge's address)
        // must not interleave with another run doing the same: threads of this JVM queue on SUBNETS, other runners on
        // the machine-wide file lock (Linux lets two bridges carry the same address, and routing then picks one).
        synchronized (SUBNETS) {
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(SUBNET_LOCK,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
                 java.nio.channels.FileLock held = ch.lock()) {
                int subnet = freeSubnet();
                boolean forward = bridgeNetfilter();
                Netns n = new Netns(run, subnet, size, forward);
                try {
                    writeOwner(run);
                    n.build();
                } catch (IOException | RuntimeException e) {
                    n.close();
                    throw e;
                }
                return n;
            }
        }
    }

    /** The lock every runner on the machine takes while it chooses and takes a subnet (netns needs root, so /run). */
    static final Path SUBNET_LOCK = Path.of("/run/lockchaos-netns.lock");

    private void build() throws IOException {
        run(List.of(IP, "link", "add", bridge, "type", "bridge"));
        run(List.of(IP, "addr", "add", hostAddress() + "/24", "dev", bridge));
        run(List.of(IP, "link", "set", bridge, "up"));
        if (forwardRule) {
            // with br_netfilter the bridged packets pass the host's FORWARD chain, which Docker sets to DROP
            run(List.of("iptables", "-I", "FORWARD", "-i", bridge, "-o", bridge, "-m", "comment", "--comment",
                    tag(), "-j", "ACCEPT"));
        }
        for (int id = 1; id <= size; id++) {
            String ns = namespace(id);
            String host = "lcv-" + run + "-" + id;
            String peer = "lcp-" + run + "-" + id;
            run(List.of(IP, "netns", "add", ns));
            run(List.of(IP, "link", "add", host, "type", "veth", "peer", "name", peer));
            run(List.of(IP, "link", "set", peer, "netns", ns));
            run(List.of(IP, "link", "set", host, "master", bridge));
            run(List.of(IP, "link", "set", host, "up"));
            run(List.of(IP, "-n", ns, "link", "set", "lo", "up"));
            run(List.of(IP, "-n", ns, "link", "set", peer, "name", "eth0"));
            run(List.of(IP, "-n", ns, "addr", "add", address(id) + "/24", "dev", "eth0"));
            run(List.of(IP, "-n", ns, "link", "set", "eth0", "up"));
        }
    }

    /** The namespace of server {@code id}. */
    public String namespace(int id) {
        return "lockchaos-" + run + "-n" + id;
    }

    /** Server {@code id}'s address, which it binds and its peers dial. */
    @Override
    public String address(int id) {
        return "10.213." + subnet + "." + (10 + id);
    }

    /** The runner's address on the bridge: where the servers see the client proxies and the runner come from. */
    public String hostAddress() {
        return "10.213." + subnet + ".1";
    }

    /** The servers' namespaces. */
    @Override
    public int size() {
        return size;
    }

    /** {@code command} as run inside server {@code id}'s namespace ({@code ip netns exec} execs it, keeping the pid). */
    @Override
    public List<String> inside(int id, List<String> command) {
        List<String> out = new ArrayList<>(List.of(IP, "netns", "exec", namespace(id)));
        out.addAll(command);
        return out;
    }

    private String tag() {
        return "lockchaos-" + run;
    }

    /**
     * Closes {@code netns} (null: nothing) and, where that fails, warns on stderr naming {@code whose} namespaces they
     * were: a run's verdict must not be lost to a cleanup failure, and the next start's {@link #sweep} retries.
     */
    public static void closeOrWarn(Netns netns, String whose) {
        if (netns == null) {
            return;
        }
        try {
            netns.close();
        } catch (IOException e) {
            System.err.println("lockchaos: warning: removing " + whose + " namespaces: " + e.getMessage());
        }
    }

    /** Removes the namespaces (which takes their ends of the links along), the bridge and the forward rule. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException first = null;
        for (int id = 1; id <= size; id++) {
            first = quietly(first, List.of(IP, "netns", "del", namespace(id)), "No such file");
            first = quietly(first, List.of(IP, "link", "del", "lcv-" + run + "-" + id), "Cannot find device");
        }
        first = quietly(first, List.of(IP, "link", "del", bridge), "Cannot find device");
        if (forwardRule) {
            first = quietly(first, List.of("iptables", "-D", "FORWARD", "-i", bridge, "-o", bridge, "-m", "comment",
                    "--comment", tag(), "-j", "ACCEPT"), "does a matching rule exist");
        }
        if (first != null) {
            throw first; // the owner file stays: the next sweep finishes the job
        }
        Files.deleteIfExists(OWNERS.resolve(run));
    }

    /** Where each run's namespaces record who made them: names have room for a pid, not for an identity. */
    private static final Path OWNERS = Path.of("/run/lockchaos");

    private static void writeOwner(String run) throws IOException {
        Files.createDirectories(OWNERS);
        Files.writeString(OWNERS.resolve(run), RunnerIdentity.current());
    }

    /** Runs a removal; "already gone" ({@code gone} in its message) is success. */
    private static IOException quietly(IOException first, List<String> cmd, String gone) {
        try {
            run(cmd);
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            // a link goes with its namespace, asynchronously: deleting it then may say "No such device"
            if (!m.contains(gone) && !m.contains("not exist") && !m.contains("No such device") && first == null) {
                return e;
            }
        }
        return first;
    }

    /**
     * Removes the namespaces, links, bridges and forward rules of runners that are gone (by the pid in their names),
     * never those of a live process. Returns how many were removed.
     */
    public static int sweep() throws IOException {
        int removed = 0;
        for (String line : run(List.of(IP, "netns", "list")).split("\n")) {
            String name = line.trim().split("\\s+")[0];
            if (name.matches("lockchaos-[0-9a-z]{1,5}-[0-9a-z]{1,2}-n[0-9]+")
                    && deadRunner(name.substring("lockchaos-".length()))) {
                if (quietly(null, List.of(IP, "netns", "del", name), "No such file") == null) {
                    removed++;
                }
            }
        }
        for (String line : run(List.of(IP, "-o", "link", "show")).split("\n")) {
            String[] parts = line.split(":\\s+");
            if (parts.length < 2) {
                continue;
            }
            String name = parts[1].split("@")[0].trim();
            if (name.matches("lc[bv]-[0-9a-z]{1,5}-[0-9a-z]{1,2}(-[0-9]+)?") && deadRunner(name.substring(4))) {
                if (quietly(null, List.of(IP, "link", "del", name), "Cannot find device") == null) {
                    removed++;
                }
            }
        }
        if (onPath("iptables")) {
            for (String rule : run(List.of("iptables", "-S", "FORWARD")).split("\n")) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("--comment \"?lockchaos-([0-9a-z]+-"
                        + "[0-9a-z]+)\"?").matcher(rule);
                if (rule.startsWith("-A FORWARD") && m.find() && deadRunner(m.group(1))) {
                    String bridge = "lcb-" + m.group(1);
                    if (quietly(null, List.of("iptables", "-D", "FORWARD", "-i", bridge, "-o", bridge, "-m",
                            "comment", "--comment", "lockchaos-" + m.group(1), "-j", "ACCEPT"), "matching") == null) {
                        removed++;
                    }
                }
            }
        }
        // the owner files of runners that are gone, once what they named is gone too
        if (Files.isDirectory(OWNERS)) {
            try (var files = Files.list(OWNERS)) {
                for (Path f : files.toList()) {
                    if (deadRunner(f.getFileName().toString())) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        }
        return removed;
    }

    /** Whether {@code pidSeq} ({@code PID-SEQ...}, pid in base 36) names a runner that no longer runs. */
    static boolean deadRunner(String pidSeq) {
        int dash = pidSeq.indexOf('-');
        if (dash <= 0) {
            return false;
        }
        int second = pidSeq.indexOf('-', dash + 1);
        Path owner = OWNERS.resolve(second < 0 ? pidSeq : pidSeq.substring(0, second));
        if (Files.isRegularFile(owner)) {
            try {
                return RunnerIdentity.gone(Files.readString(owner));
            } catch (IOException e) {
                return false;
            }
        }
        try {
            long pid = Long.parseLong(pidSeq.substring(0, dash), 36);
            return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false; // not a name of ours
        }
    }

    /** The first 10.213.K.0/24 that no interface here has an address in. */
    private static int freeSubnet() throws IOException {
        String addrs = run(List.of(IP, "-o", "-4", "addr", "show")) + run(List.of(IP, "-4", "route", "show"));
        for (int k = 0; k < 256; k++) {
            if (!addrs.contains("10.213." + k + ".")) {
                return k;
            }
        }
        throw new IOException("cluster: netns: no free /24 left in 10.213.0.0/16");
    }

    /** Whether bridged packets pass through iptables (br_netfilter loaded and switched on). */
    private static boolean bridgeNetfilter() {
        try {
            return Sysctl.read(Path.of("/proc/sys/net/bridge/bridge-nf-call-iptables")).equals("1");
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs a command (an argument array, never a shell) and returns its output; a non-zero exit is an IOException. */
    public static String run(List<String> cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + ": no answer in 30 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", cmd) + ": interrupted");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ": "
                    + text.strip().replace('\n', ' '));
        }
        return text;
    }
}
