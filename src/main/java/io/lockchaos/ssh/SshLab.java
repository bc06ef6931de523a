package io.lockchaos.ssh;

import io.lockchaos.cluster.Netns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Hosts of this machine's own for {@code --cluster ssh}: a network namespace per host (as {@code --cluster netns}
 * makes them, each with its own address and iptables), Debian's {@code sshd} listening in each on port 22 with a host
 * key made for the lab, a client key allowed to log in as root, and a known-hosts file with the hosts' keys. The
 * hosts share this machine's file system and processes, which a real cluster does not: a run keeps each host's
 * folder apart by its name ({@link HostRun#base}). A login's HOME is the lab's folder, so the start-up files of this
 * machine's root (a slow {@code .bashrc}) are not run for every session. Every sshd dies with this JVM ({@code setpriv --pdeathsig KILL},
 * forked from one long-lived thread); its sessions end when their connections do. Needs root, {@code ip},
 * {@code iptables}, {@code /usr/sbin/sshd} and {@code ssh-keygen}; {@link #unavailable} says what is missing.
 */
public final class SshLab implements AutoCloseable {
    private static final Path SSHD = Path.of("/usr/sbin/sshd");
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "lockchaos-sshd-spawner");
        t.setDaemon(true);
        return t;
    });

    private final Netns netns;
    private final Path dir;
    private final List<Process> sshds = new ArrayList<>();
    private final List<String> hosts = new ArrayList<>();

    private SshLab(Netns netns, Path dir) {
        this.netns = netns;
        this.dir = dir;
    }

    /** Why a lab cannot be made here, in one line, or null when it can. */
    public static String unavailable() {
        String why = Netns.unavailable();
        if (why != null) {
            return why.replace("cluster: netns", "ssh lab");
        }
        if (!Files.isExecutable(SSHD) || !Files.isExecutable(Path.of("/usr/bin/ssh-keygen"))) {
            return "ssh lab needs Debian's openssh-server (/usr/sbin/sshd) and ssh-keygen: apt-get install"
                    + " openssh-server";
        }
        return null;
    }

    /** Makes {@code size} hosts with their keys in {@code dir}, and waits until each answers on port 22. */
    public static SshLab create(int size, Path dir) throws IOException {
        return create(size, dir, false);
    }

    /**
     * As {@link #create(int, Path)}; with {@code noisyLogin}, every login shell first prints a line to stdout and one
     * to stderr (a {@code BASH_ENV} script set by sshd), as real hosts' start-up files do (pyenv's, a banner).
     */
    public static SshLab create(int size, Path dir, boolean noisyLogin) throws IOException {
        String why = unavailable();
        if (why != null) {
            throw new IOException(why);
        }
        Files.createDirectories(dir);
        Netns ns = Netns.create(size);
        SshLab lab = new SshLab(ns, dir.toAbsolutePath());
        try {
            lab.build(size, noisyLogin);
        } catch (IOException | RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    private void build(int size, boolean noisyLogin) throws IOException {
        Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation folder
        keygen(dir.resolve("id_ecdsa"));
        keygen(dir.resolve("host_key"));
        Files.copy(dir.resolve("id_ecdsa.pub"), dir.resolve("authorized_keys"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String hostKey = Files.readString(dir.resolve("host_key.pub")).trim();
        hostKey = hostKey.substring(0, hostKey.lastIndexOf(' ') > hostKey.indexOf(' ')
                ? hostKey.lastIndexOf(' ') : hostKey.length());
        StringBuilder known = new StringBuilder();
        for (int id = 1; id <= size; id++) {
            String address = netns.address(id);
            hosts.add(address);
            known.append(address).append(' ').append(hostKey).append('\n');
            Path cfg = dir.resolve("sshd-" + id + ".conf");
            Files.writeString(cfg, String.join("\n",
                    "ListenAddress " + address,
                    "Port 22",
                    "HostKey " + dir.resolve("host_key"),
                    "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                    "PermitRootLogin prohibit-password",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "UsePAM no",
                    "StrictModes no",
                    "PidFile none",
                    // the login shell reads its start-up files from the lab's folder, not this machine's root's (whose
                    // .bashrc here initialises pyenv: 0.4 s of CPU a session, most of a lab run's SSH cost)
                    "SetEnv HOME=" + dir + (noisyLogin ? " BASH_ENV=" + noisy() : ""),
                    ""), StandardCharsets.UTF_8);
            List<String> cmd = netns.inside(id, List.of("setpriv", "--pdeathsig", "KILL", "--", SSHD.toString(),
                    "-D", "-f", cfg.toString(), "-E", dir.resolve("sshd-" + id + ".log").toString()));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("sshd-" + id + ".out").toFile()));
            try {
                sshds.add(SPAWNER.submit(pb::start).get());
            } catch (ExecutionException e) {
                throw new IOException("starting sshd for host " + address + ": " + e.getCause().getMessage(),
                        e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted starting sshd", e);
            }
        }
        Files.writeString(dir.resolve("known_hosts"), known.toString(), StandardCharsets.UTF_8);
        for (int id = 1; id <= size; id++) {
            awaitListening(id);
        }
    }

    /** A start-up script that talks on both streams, as a real host's may. */
    private Path noisy() throws IOException {
        Path f = dir.resolve("noisy-login.sh");
        Files.writeString(f, "echo 'welcome to a lab host, 12345'\necho 'pyenv: cannot rehash: 4242' >&2\n",
                StandardCharsets.UTF_8);
        return f;
    }

    private static void keygen(Path key) throws IOException {
        Files.deleteIfExists(key);
        Files.deleteIfExists(Path.of(key + ".pub"));
        Netns.run(List.of("ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-C", "lockchaos-lab", "-f", key.toString()));
    }

    private void awaitListening(int id) throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress(hosts.get(id - 1), 22), 500);
                return;
            } catch (IOException e) {
                Process p = sshds.get(id - 1);
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    String log = "";
                    try {
                        log = Files.readString(dir.resolve("sshd-" + id + ".log")).trim();
                    } catch (IOException ignored) {
                        // no log yet
                    }
                    throw new IOException("sshd of host " + hosts.get(id - 1) + " does not listen: " + log);
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    /** The hosts' addresses, host 1 first. */
    public List<String> hosts() {
        return List.copyOf(hosts);
    }

    /** The folder of the keys, the known-hosts file and the sshd logs. */
    public Path dir() {
        return dir;
    }

    /** How to log in: root, the lab's client key, port 22, the lab's known hosts. */
    public SshOptions options() {
        return new SshOptions("root", dir.resolve("id_ecdsa"), 22, dir.resolve("known_hosts"), false);
    }

    /** The namespaces, for looking at a host's iptables from outside. */
    public Netns netns() {
        return netns;
    }

    @Override
    public void close() throws IOException {
        for (Process p : sshds) {
            p.destroyForcibly();
        }
        for (Process p : sshds) {
            try {
                p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        netns.close();
    }
}
