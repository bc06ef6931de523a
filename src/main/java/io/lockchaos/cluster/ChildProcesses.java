package io.lockchaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The server processes a cluster started, by node id: kill -9, SIGSTOP/SIGCONT by pid, and killing them all. Shared
 * by every service's servers that run as child processes here; the owner synchronizes.
 */
public final class ChildProcesses {
    /**
     * The one thread that forks every server, living as long as the JVM: a server started through {@code setpriv
     * --pdeathsig KILL} gets the signal when the thread that forked it ends, not the process, so a pool's short-lived
     * thread would kill its servers early.
     */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "lockchaos-server-spawner");
        t.setDaemon(true);
        return t;
    });

    private final String what;
    private final Map<Integer, Process> processes = new LinkedHashMap<>();

    /** @param what how messages name a server, e.g. "server" or "redis-server" */
    public ChildProcesses(String what) {
        this.what = what;
    }

    /**
     * Starts {@code pb} from the spawner thread (see {@link #SPAWNER}); {@code name} says which server in the message
     * when it cannot start ({@code etcd 2}).
     */
    public static Process spawn(ProcessBuilder pb, String name) throws IOException {
        try {
            return SPAWNER.submit(pb::start).get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException io ? io : new IOException("could not start " + name + ": " + c, c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + name, e);
        }
    }

    public void put(int id, Process p) {
        processes.put(id, p);
    }

    /** Whether the server is meant to be running (started and not killed). */
    public boolean running(int id) {
        return processes.containsKey(id);
    }

    /** The running process of server {@code id}, or null. */
    public Process get(int id) {
        return processes.get(id);
    }

    public Map<Integer, Process> all() {
        return java.util.Collections.unmodifiableMap(processes);
    }

    public long pid(int id) {
        Process p = processes.get(id);
        if (p == null) {
            throw new IllegalStateException(what + " " + id + " is not running");
        }
        return p.pid();
    }

    /** SIGKILL, and waits for it to be gone; a server not running is left alone. */
    public void kill(int id) {
        Process p = processes.remove(id);
        if (p != null) {
            p.destroyForcibly();
            waitQuietly(p);
        }
    }

    /** Fails when the server is running (a restart must follow a kill). */
    public void requireStopped(int id) {
        if (processes.containsKey(id)) {
            throw new IllegalStateException(what + " " + id + " is running; kill it first");
        }
    }

    /** Sends {@code sig} (e.g. {@code -STOP}) to the server's pid with kill(1), started from an argument array. */
    public void signal(int id, String sig) {
        long pid = pid(id);
        try {
            Process k = new ProcessBuilder("kill", sig, Long.toString(pid)).redirectErrorStream(true).start();
            if (!k.waitFor(5, TimeUnit.SECONDS) || k.exitValue() != 0) {
                throw new IllegalStateException("kill " + sig + " " + pid + " failed");
            }
            if (sig.equals("-STOP")) {
                awaitStopped(pid);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + what + " " + id, e);
        }
    }

    /**
     * Waits (up to 2 s) until every thread of {@code pid} is stopped: {@code kill} returns once the signal is sent,
     * and a thread running on another core stops only when it next enters the kernel, so a request could still be
     * answered right after a pause began.
     */
    static void awaitStopped(long pid) throws InterruptedException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < deadline) {
            boolean all = true;
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
                for (Path t : threads) {
                    String stat = Files.readString(t.resolve("stat"));
                    char state = stat.charAt(stat.lastIndexOf(')') + 2);
                    if (state != 'T' && state != 't' && state != 'Z' && state != 'X') {
                        all = false;
                        break;
                    }
                }
            } catch (IOException e) {
                return; // the process (or a thread) is gone, or there is no /proc: nothing left to wait for
            }
            if (all) {
                return;
            }
            Thread.sleep(1);
        }
    }

    /** SIGKILLs every server (which also ends a SIGSTOPped one, deaf to SIGTERM) and waits for them. */
    public void killAll() {
        for (Process p : processes.values()) {
            p.destroyForcibly();
        }
        for (Process p : processes.values()) {
            waitQuietly(p);
        }
        processes.clear();
    }

    private static void waitQuietly(Process p) {
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits up to {@code seconds} for a restarted server to answer ({@code answers}); fails naming it and {@code
     * log}, where it said why.
     */
    public void awaitRestart(int id, java.util.function.BooleanSupplier answers, int seconds, String log)
            throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!answers.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IOException(what + " " + id + " did not answer within " + seconds + " s of its restart"
                        + (log == null ? "" : " (see " + log + ")"));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while restarting " + what + " " + id, e);
            }
        }
    }

    /**
     * The version a server program prints for {@code --version}: the first group of {@code pattern}; "missing" when
     * there is no program, "unknown" when it says nothing that matches.
     */
    public static String version(String executable, String pattern) {
        if (executable == null) {
            return "missing";
        }
        try {
            Process p = new ProcessBuilder(executable, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor(5, TimeUnit.SECONDS);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(out);
            return m.find() ? m.group(1) : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
