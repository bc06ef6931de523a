package io.lockchaos.ssh;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;
import org.apache.sshd.core.CoreModuleProperties;

/**
 * One host, logged in to over SSH: runs argument arrays there, uploads files and starts processes that live as long
 * as the runner's connection. Every command reaches the remote shell as its arguments each in single quotes, so
 * nothing in an argument is read by that shell.
 */
public final class SshHost implements AutoCloseable {
    private static final Duration CONNECT = Duration.ofSeconds(15);
    private static final Duration COMMAND = Duration.ofSeconds(60);

    private final String host;
    private final ClientSession session;
    /** Whether the login user is root: asked once, right after the login. */
    private volatile boolean root;
    /** The login user's id on the host, asked with {@link #root}. */
    private volatile String uid;

    private SshHost(String host, ClientSession session) {
        this.host = host;
        this.session = session;
    }

    /** Why a host's key was refused, per host, for a one-line error instead of MINA's. */
    private static final Map<String, String> REFUSED = new ConcurrentHashMap<>();

    /**
     * A started SSH client that checks host keys against {@code o.knownHosts()}: an unknown host is refused unless
     * {@code o.acceptNew()} (then its key is written there), a host whose key changed always is.
     */
    public static SshClient client(SshOptions o) {
        SshClient c = SshClient.setUpDefaultClient();
        // a run can last hours without a command to a host: no idle timeout; a heartbeat keeps firewalls' state alive
        CoreModuleProperties.IDLE_TIMEOUT.set(c, Duration.ZERO);
        CoreModuleProperties.HEARTBEAT_INTERVAL.set(c, Duration.ofSeconds(20));
        ServerKeyVerifier unknown = (session, address, key) -> {
            if (o.acceptNew()) {
                return true;
            }
            REFUSED.put(hostOf(address), "its key (" + KeyUtils.getFingerPrint(key) + ") is not in "
                    + o.knownHosts() + "; add it, or run once with ssh_accept_new true (--ssh-accept-new true) to"
                    + " record it");
            return false;
        };
        KnownHostsServerKeyVerifier known = new KnownHostsServerKeyVerifier(unknown, o.knownHosts()) {
            @Override
            public boolean acceptModifiedServerKey(ClientSession s, SocketAddress address, KnownHostEntry entry,
                    PublicKey expected, PublicKey actual) {
                REFUSED.put(hostOf(address), "its key changed: " + o.knownHosts() + " has "
                        + KeyUtils.getFingerPrint(expected) + ", the host showed " + KeyUtils.getFingerPrint(actual)
                        + "; refused (remove the old line if the change is yours)");
                return false;
            }
        };
        c.setServerKeyVerifier(known);
        c.setKeyIdentityProvider(new FileKeyPairProvider(o.key()));
        c.start();
        return c;
    }

    private static String hostOf(SocketAddress a) {
        return a instanceof java.net.InetSocketAddress i ? i.getHostString() : String.valueOf(a);
    }

    /** Logs in to {@code host} as {@code o.user()}; the one-line error says which step failed. */
    public static SshHost connect(SshClient client, SshOptions o, String host) throws IOException {
        String keyProblem = o.keyProblem();
        if (keyProblem != null) {
            throw new IOException(keyProblem);
        }
        REFUSED.remove(host);
        ClientSession s;
        try {
            s = client.connect(o.user(), host, o.port()).verify(CONNECT).getSession();
        } catch (IOException e) {
            throw new IOException("host " + host + ": cannot connect to port " + o.port() + ": " + rootCause(e));
        }
        try {
            s.auth().verify(CONNECT);
        } catch (IOException e) {
            s.close(true);
            String refused = REFUSED.remove(host);
            throw new IOException("host " + host + ": " + (refused != null ? refused
                    : "cannot log in as " + o.user() + " with " + o.key() + ": " + rootCause(e)));
        }
        SshHost h = new SshHost(host, s);
        try {
            h.uid = h.run(List.of("id", "-u")).trim();
            h.root = h.uid.equals("0");
        } catch (IOException e) {
            h.close();
            throw e;
        }
        return h;
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage() != null ? t.getMessage() : t);
    }

    public String host() {
        return host;
    }

    /** The login user's numeric id on the host. */
    public String uid() {
        return uid;
    }

    /** Whether the login user is root (else commands that need it run through {@code sudo -n}). */
    public boolean root() {
        return root;
    }

    /** {@code argv} as one line for the remote shell: each argument in single quotes. */
    public static String commandLine(List<String> argv) {
        List<String> quoted = new ArrayList<>();
        for (String a : argv) {
            quoted.add("'" + a.replace("'", "'\\''") + "'");
        }
        return String.join(" ", quoted);
    }

    /** Runs {@code argv} and returns its output; a non-zero exit is an error that carries its stderr. */
    public String run(List<String> argv) throws IOException {
        return run(argv, null);
    }

    /** Runs {@code argv} as root: directly when logged in as root, else through {@code sudo -n}. */
    public String runAsRoot(List<String> argv) throws IOException {
        if (root) {
            return run(argv);
        }
        List<String> sudo = new ArrayList<>(List.of("sudo", "-n", "--"));
        sudo.addAll(argv);
        return run(sudo);
    }

    /** Runs {@code argv} with {@code input} as its standard input (null: none). */
    public String run(List<String> argv, InputStream input) throws IOException {
        return exec(commandLine(argv), input, String.join(" ", argv));
    }

    private RemoteShell shell;

    /** The host's command shell, opened again when an earlier one ended. */
    private synchronized RemoteShell shell() throws IOException {
        if (shell == null || !shell.open()) {
            shell = RemoteShell.open(session, COMMAND);
            shell.run("true", COMMAND); // what the login shell's start-up files print goes with this
        }
        return shell;
    }

    /**
     * Runs a line of the remote shell (for a redirection or an {@code exec}); every argument in it quoted. Without
     * input it goes to the host's command shell; with input, to a session of its own that reads it.
     */
    String exec(String line, InputStream input, String shown) throws IOException {
        if (input == null) {
            RemoteShell.Result r;
            try {
                r = shell().run(line, COMMAND);
            } catch (IOException e) {
                throw new IOException("host " + host + ": " + shown + ": " + e.getMessage(), e);
            }
            if (r.status() != 0) {
                String e = r.err().trim();
                throw new IOException("host " + host + ": " + shown + ": exit " + r.status()
                        + (e.isEmpty() ? "" : ": " + e.lines().findFirst().orElse("")));
            }
            return r.out();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ChannelExec ch = session.createExecChannel(line)) {
            ch.setIn(input != null ? input : new ByteArrayInputStream(new byte[0]));
            ch.setOut(out);
            ch.setErr(err);
            ch.open().verify(COMMAND);
            Set<ClientChannelEvent> ev = ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), COMMAND);
            if (ev.contains(ClientChannelEvent.TIMEOUT)) {
                throw new IOException("host " + host + ": " + shown + ": no answer in " + COMMAND.toSeconds() + " s");
            }
            Integer rc = ch.getExitStatus();
            if (rc == null || rc != 0) {
                String e = err.toString(StandardCharsets.UTF_8).trim();
                throw new IOException("host " + host + ": " + shown + ": exit " + (rc == null ? "unknown" : rc)
                        + (e.isEmpty() ? "" : ": " + e.lines().findFirst().orElse("")));
            }
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /** Copies {@code local} to {@code remote} (its folder must exist). */
    public void upload(Path local, String remote) throws IOException {
        try (InputStream in = Files.newInputStream(local)) {
            exec("cat > " + commandLine(List.of(remote)), in, "upload to " + remote);
        }
    }

    /**
     * Copies {@code files} (each a name, which may have folders, to a local file) into the folder {@code dir}, made
     * if missing, in one upload: a tar archive unpacked there.
     */
    public void uploadAll(java.util.Map<String, Path> files, String dir) throws IOException {
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        Tar.write(files, tar);
        exec("mkdir -p " + commandLine(List.of(dir)) + " && tar -x -f - -C " + commandLine(List.of(dir)),
                new ByteArrayInputStream(tar.toByteArray()), "upload " + files.size() + " files to " + dir);
    }

    /** Writes {@code text} to {@code remote}, replacing it. */
    public void write(String remote, String text) throws IOException {
        exec("printf '%s' " + commandLine(List.of(text)) + " > " + commandLine(List.of(remote)), null,
                "write " + remote);
    }

    /**
     * Overwrites the first bytes of {@code remote} with {@code bytes} in place, without truncating it first: a file
     * that a process has mapped (the clock-shift library's offset) must never be shorter than the mapping, even for an
     * instant.
     */
    public void overwrite(String remote, byte[] bytes) throws IOException {
        StringBuilder octal = new StringBuilder();
        for (byte b : bytes) {
            octal.append(String.format("\\%03o", b & 0xff));
        }
        exec("printf '" + octal + "' | dd of=" + commandLine(List.of(remote)) + " bs=" + bytes.length
                + " count=1 conv=notrunc 2> /dev/null", null, "overwrite " + remote);
    }

    /** Appends {@code line} and a newline to {@code remote}. */
    public void append(String remote, String line) throws IOException {
        exec("printf '%s\\n' " + commandLine(List.of(line)) + " >> " + commandLine(List.of(remote)), null,
                "append to " + remote);
    }

    /** The text of {@code remote}. */
    public String read(String remote) throws IOException {
        return run(List.of("cat", "--", remote));
    }

    /**
     * Starts {@code argv} in {@code dir} with its output appended to {@code log}, its standard input the
     * connection (open until {@link Background#close}), and returns it once its pid is known (from a marked line, so
     * that whatever the login shell prints first is no matter).
     */
    public Background start(String dir, List<String> argv, String log) throws IOException {
        return start(dir, argv, log, false);
    }

    /**
     * As {@link #start(String, List, String)}; with {@code talks}, only its stderr goes to {@code log} and its stdout
     * comes back here ({@link Background#output}), and {@link Background#send} writes to its stdin.
     */
    public Background start(String dir, List<String> argv, String log, boolean talks) throws IOException {
        String line = "cd " + commandLine(List.of(dir)) + " && echo " + PID_MARK + "$$ && exec " + commandLine(argv)
                + (talks ? " 2>> " + commandLine(List.of(log))
                : (log == null ? " > /dev/null" : " >> " + commandLine(List.of(log))) + " 2>&1");
        PidLine pid = new PidLine();
        PidLine err = new PidLine(); // the login shell's complaints; never a pid line
        ChannelExec ch = session.createExecChannel(line);
        ch.setOut(pid);
        ch.setErr(err);
        ch.open().verify(COMMAND);
        long deadline = System.nanoTime() + COMMAND.toNanos();
        while (pid.pid() < 0) {
            if (ch.isClosed() || System.nanoTime() > deadline) {
                ch.close(true);
                throw new IOException("host " + host + ": could not start " + argv.get(0) + ": "
                        + (err.text() + pid.text()).trim().replace('\n', ' '));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                ch.close(true);
                Thread.currentThread().interrupt();
                throw new IOException("interrupted starting " + argv.get(0) + " on " + host, e);
            }
        }
        return new Background(pid.pid(), ch);
    }

    /** A process started by {@link #start}: its pid on the host, and the channel that is its standard input. */
    public static final class Background implements AutoCloseable {
        private final long pid;
        private final ChannelExec channel;

        Background(long pid, ChannelExec channel) {
            this.pid = pid;
            this.channel = channel;
        }

        public long pid() {
            return pid;
        }

        /** Whether the process still runs (its channel is open until it exits). */
        public boolean alive() {
            return !channel.isClosed() && channel.getExitStatus() == null;
        }

        /** Its exit status, or -1 while it runs (or when the host did not say). */
        public int exitStatus() {
            Integer s = channel.getExitStatus();
            return s == null ? -1 : s;
        }

        /** Waits up to {@code timeout} for it to exit; whether it did. */
        public boolean awaitExit(Duration timeout) {
            Set<ClientChannelEvent> ev = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED,
                    ClientChannelEvent.EXIT_STATUS), timeout);
            return !ev.contains(ClientChannelEvent.TIMEOUT);
        }

        /** What the process printed so far on its stdout (up to 64 KB; with {@code talks} only). */
        public String output() {
            return channel.getOut() instanceof PidLine p ? p.output() : "";
        }

        /** Writes {@code line} and a newline to its standard input, which stays open. */
        public void send(String line) throws IOException {
            OutputStream in = channel.getInvertedIn();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** Ends its standard input (which a process started by lockchaos takes as the order to finish). */
        public void endInput() {
            try {
                channel.getInvertedIn().close();
            } catch (IOException e) {
                // the channel is gone already: so is the input
            }
        }

        @Override
        public void close() {
            channel.close(true);
        }
    }

    /** The line a started command prints before its exec, with its pid (the login shell may print first). */
    private static final String PID_MARK = "lockchaos-pid ";

    /**
     * Collects what a started command prints: what the login shell's start-up files print comes first (pyenv's
     * complaints, a banner), then the marked pid line, then the process's own output.
     */
    private static final class PidLine extends OutputStream {
        private static final int KEEP = 65_536;
        private final StringBuilder before = new StringBuilder();
        private final StringBuilder line = new StringBuilder();
        private final StringBuilder after = new StringBuilder();
        private volatile long pid = -1;

        @Override
        public synchronized void write(int b) {
            char c = (char) (b & 0xff);
            if (pid >= 0) {
                if (after.length() < KEEP) {
                    after.append(c);
                }
                return;
            }
            if (before.length() < KEEP) {
                before.append(c);
            }
            if (c != '\n') {
                line.append(c);
                return;
            }
            String l = line.toString().trim();
            line.setLength(0);
            if (l.startsWith(PID_MARK) && l.substring(PID_MARK.length()).matches("\\d+")) {
                pid = Long.parseLong(l.substring(PID_MARK.length()));
            }
        }

        long pid() {
            return pid;
        }

        /** What the process printed after its pid line. */
        synchronized String output() {
            return after.toString();
        }

        /** Everything before the pid line, for an error message. */
        synchronized String text() {
            return before.toString();
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (shell != null) {
                shell.close();
            }
        }
        session.close(false);
    }
}
