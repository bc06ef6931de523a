package io.lockchaos.ssh;

import io.lockchaos.agent.AgentLauncher;
import io.lockchaos.agent.AgentMain;
import io.lockchaos.agent.AgentWire;
import io.lockchaos.agent.ClientAgents;
import io.lockchaos.agent.RemoteClient;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.ServerClasspath;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.sshd.client.SshClient;

/**
 * Client agents on other hosts ({@code client_hosts}), one per host, started over SSH on the runner's own classpath
 * (uploaded into the run's folder there, see {@link HostRun}). Each listens on its host's address (as the runner
 * resolves the host's name) and asks every connection to prove the run's secret, a random value made per run and
 * written to the agent's standard input over SSH, never put on a command line (see {@link AgentMain}). The agent halts
 * when that input ends, which is when the runner closes the connection or dies; the same input carries the server
 * endpoints the agent may dial ({@link #allow}). At start, each agent's wall-clock
 * offset to this machine is measured (the best of five round trips) and written to {@code clock-offsets.json} in the
 * log folder; the history stays on this machine's clock, since the runner records every op as it sends and receives
 * it.
 */
public final class SshAgents implements ClientAgents {
    private final SshClient client;
    private final List<SshHost> hosts;
    private final List<HostRun> runs;
    private final List<SshHost.Background> processes;
    private final List<AgentLauncher.Agent> agents;
    private final List<Map<String, Object>> offsets;
    private final Path logDir;
    private final long startMillis;
    private boolean closed;

    private SshAgents(SshClient client, List<SshHost> hosts, List<HostRun> runs, List<SshHost.Background> processes,
            List<AgentLauncher.Agent> agents, List<Map<String, Object>> offsets, Path logDir, long startMillis) {
        this.client = client;
        this.hosts = hosts;
        this.runs = runs;
        this.processes = processes;
        this.agents = agents;
        this.offsets = offsets;
        this.logDir = logDir;
        this.startMillis = startMillis;
    }

    /** Starts an agent on each of {@code names}; what was started is undone when one cannot start. */
    public static SshAgents start(List<String> names, SshOptions o, Path logDir) throws IOException {
        long t0 = System.nanoTime();
        Files.createDirectories(logDir);
        byte[] raw = new byte[32];
        new java.security.SecureRandom().nextBytes(raw);
        String secret = java.util.HexFormat.of().formatHex(raw);
        String run = "a" + Long.toString(ProcessHandle.current().pid(), 36) + "-"
                + Long.toString(java.util.concurrent.ThreadLocalRandom.current().nextLong(1L << 40), 36);
        int n = names.size();
        List<SshHost> hosts = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(n, null)));
        List<HostRun> runs = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(n, null)));
        List<SshHost.Background> procs = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(n, null)));
        List<AgentLauncher.Agent> agents = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(n, null)));
        SshClient client = SshHost.client(o);
        SshAgents started = new SshAgents(client, hosts, runs, procs, agents, new ArrayList<>(), logDir, 0);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Path> jars = ServerClasspath.runnerJars();
            List<Future<Void>> setups = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int at = i;
                setups.add(pool.submit(() -> {
                    startOne(client, o, names.get(at), run, jars, secret, at, hosts, runs, procs, agents);
                    return null;
                }));
            }
            for (Future<Void> f : setups) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    // a host that cannot be reached, logged in to or used is the user's to fix: one line
                    throw new EnvironmentProblem("client_hosts: "
                            + e.getCause().getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while starting the client agents", e);
                }
            }
            List<Map<String, Object>> offsets = measureOffsets(names, agents);
            Files.writeString(logDir.resolve("clock-offsets.json"), new com.fasterxml.jackson.databind.ObjectMapper()
                    .writerWithDefaultPrettyPrinter().writeValueAsString(offsets), StandardCharsets.UTF_8);
            return new SshAgents(client, hosts, runs, procs, List.copyOf(agents), offsets, logDir,
                    (System.nanoTime() - t0) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            started.close();
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void startOne(SshClient client, SshOptions o, String name, String run, List<Path> jars,
            String secret, int at, List<SshHost> hosts, List<HostRun> runs, List<SshHost.Background> procs,
            List<AgentLauncher.Agent> agents) throws IOException {
        SshHost h = SshHost.connect(client, o, name);
        hosts.set(at, h);
        HostRun r = HostRun.begin(h, run);
        runs.set(at, r);
        try {
            h.run(List.of("java", "-version"));
        } catch (IOException e) {
            throw new IOException("client host " + name + ": no java on the PATH of " + o.user()
                    + " (a JRE 17 or later is needed there): " + e.getMessage());
        }
        Map<String, Path> files = new LinkedHashMap<>();
        List<String> cp = new ArrayList<>();
        for (int i = 0; i < jars.size(); i++) {
            String file = i + "-" + jars.get(i).getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_");
            files.put(file, jars.get(i));
            cp.add(r.dir() + "/cp/" + file);
        }
        h.uploadAll(files, r.dir() + "/cp");
        String address = InetAddress.getByName(name).getHostAddress();
        List<String> cmd = new ArrayList<>(List.of("java"));
        cmd.addAll(AgentLauncher.JVM_FLAGS);
        cmd.addAll(List.of("-cp", String.join(":", cp), AgentMain.class.getName(), "--listen", address + ":0",
                "--parent", "stdin", "--secret", "stdin"));
        SshHost.Background b = h.start(r.dir(), cmd, r.dir() + "/agent.log", true);
        procs.set(at, b);
        r.recordProcess(b.pid());
        b.send(secret);
        String hello = awaitHello(h, r, b);
        Map<String, Object> m = AgentWire.decode(hello);
        String listening = (String) m.get("listening");
        int colon = listening.lastIndexOf(':');
        agents.set(at, new AgentLauncher.Agent(null, new InetSocketAddress(listening.substring(0, colon),
                Integer.parseInt(listening.substring(colon + 1))), (String) m.get("curator"),
                (String) m.get("zookeeper"), null, secret.getBytes(StandardCharsets.UTF_8)));
    }

    /** The agent's hello (its first line of output), within 60 s. */
    private static String awaitHello(SshHost h, HostRun r, SshHost.Background b) throws IOException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            String out = b.output(); // the agent's stdout: its hello is its first line
            int nl = out.indexOf('\n');
            if (nl > 0) {
                return out.substring(0, nl).trim();
            }
            if (!b.alive() || System.nanoTime() > deadline) {
                String log = "";
                try {
                    log = h.read(r.dir() + "/agent.log").strip();
                } catch (IOException e) {
                    // no log to quote
                }
                throw new IOException("client host " + h.host() + ": the client agent did not start"
                        + (log.isEmpty() ? "" : ": " + log.lines().reduce((a, c) -> c).orElse("")));
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    /** Each agent's clock offset: the best (shortest) of five round trips. */
    private static List<Map<String, Object>> measureOffsets(List<String> names, List<AgentLauncher.Agent> agents)
            throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < agents.size(); i++) {
            AgentLauncher.Agent a = agents.get(i);
            long[] best = null;
            try (RemoteClient c = RemoteClient.connect(a.address(), a.secret())) {
                for (int k = 0; k < 5; k++) {
                    long[] m = c.clockOffset();
                    if (best == null || m[1] < best[1]) {
                        best = m;
                    }
                }
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("client host " + names.get(i) + ": measuring its clock: " + e.getMessage(), e);
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", names.get(i));
            m.put("agent", a.address().getHostString() + ":" + a.address().getPort());
            m.put("offset_ms", best[0]);
            m.put("round_trip_ms", best[1]);
            out.add(m);
        }
        return out;
    }

    @Override
    public List<AgentLauncher.Agent> agents() {
        return agents;
    }

    @Override
    public long startMillis() {
        return startMillis;
    }

    /** Sends the allowance down each agent's standard input, the SSH channel that started it. */
    @Override
    public synchronized void allow(List<String> endpoints) throws IOException {
        String line = AgentWire.encode(Map.of("allow", List.copyOf(endpoints)));
        for (int i = 0; i < processes.size(); i++) {
            SshHost.Background b = processes.get(i);
            if (b == null || !b.alive()) {
                continue;
            }
            try {
                b.send(line);
            } catch (IOException e) {
                if (b.alive()) {
                    throw new IOException("client host " + hosts.get(i).host() + ": could not tell its agent which"
                            + " servers it may dial: " + e.getMessage(), e);
                }
            }
        }
    }

    /** Each agent's host, its wall clock's offset to this machine's (ms) and the round trip it was measured in. */
    public List<Map<String, Object>> clockOffsets() {
        return offsets;
    }

    /** Ends the agents' input (they halt), copies their logs into the log folder and undoes the runs on the hosts. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < processes.size(); i++) {
            SshHost.Background b = processes.get(i);
            if (b != null) {
                b.endInput();
                b.awaitExit(java.time.Duration.ofSeconds(10));
                b.close();
            }
            SshHost h = hosts.get(i);
            HostRun r = runs.get(i);
            if (h != null && r != null) {
                try {
                    Files.writeString(logDir.resolve("agent-" + (i + 1) + ".log"), h.read(r.dir() + "/agent.log"),
                            StandardCharsets.UTF_8);
                } catch (IOException e) {
                    System.err.println("lockchaos: warning: client host " + h.host() + ": " + e.getMessage());
                }
            }
        }
        HostRun.closeAll(runs, hosts);
        client.stop();
    }
}
