package io.lockchaos.own;

import io.lockchaos.cluster.ChildProcesses;
import io.lockchaos.cluster.ChildServers;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.Netns;
import io.lockchaos.cluster.ServerNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

/**
 * A lock's own servers as child processes, each started from the argument array its factory gave for it, in its
 * folder {@code baseDir/server-N} (kept across kills), its output in {@code server.log} there; on loopback, or each in
 * a network namespace of its own ({@link Netns}), where cuts between servers are iptables rules. Every server dies
 * with the runner, also after a SIGKILL of the runner: started through util-linux's {@code setpriv --pdeathsig KILL}
 * from {@link ChildProcesses#spawn}'s thread ({@link ChildServers}). A server is up once it accepts a TCP connection on
 * its port.
 */
final class OwnServers extends ChildServers {
    private final String name;
    private final List<List<String>> commands;

    /**
     * @param name how messages name one server ({@code lease-server})
     * @param commands each node's program and arguments, in the order of {@code nodes}
     * @param netns the servers' namespaces, one each, or null: closed with the servers
     */
    OwnServers(String name, List<ServerNode> nodes, List<List<String>> commands, Netns netns) {
        super(nodes, netns, name, "the lock's own servers'");
        if (nodes.size() != commands.size()) {
            throw new IllegalArgumentException(nodes.size() + " servers, " + commands.size() + " commands");
        }
        this.name = name;
        this.commands = commands.stream().map(List::copyOf).toList();
    }

    @Override
    protected Process launch(ServerNode n) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of("setpriv", "--pdeathsig", "KILL", "--"));
        cmd.addAll(commands.get(n.id() - 1));
        // the log says what ran, for a server that exits at once
        Files.writeString(n.logFile(), "lockchaos: starting " + String.join(" ", cmd) + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(netns() == null ? cmd : netns().inside(n.id(), cmd))
                .directory(n.dataDir().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(n.logFile().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return ChildProcesses.spawn(pb, name + " " + n.id());
    }

    /** Waits until every server accepts a TCP connection on its port; a server that exits fails it at once. */
    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ServerNode n : nodes()) {
            while (!n.answers(200)) {
                Process p = process(n);
                if (p != null && !p.isAlive()) {
                    throw new EnvironmentProblem(name + " " + n.id() + " exited with " + p.exitValue() + " (see "
                            + n.logFile() + ")");
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException(name + " " + n.id() + " did not accept connections on "
                            + n.clientAddress() + " within " + timeout.toMillis() + " ms (see " + n.logFile() + ")");
                }
                Thread.sleep(50);
            }
        }
    }
}
