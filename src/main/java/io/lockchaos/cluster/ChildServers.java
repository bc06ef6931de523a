package io.lockchaos.cluster;

import java.io.IOException;
import java.util.List;

/**
 * Servers that run as child processes of this JVM, one per node, here or each in a network namespace of its own:
 * started (by the subclass's {@link #launch}, through {@link ChildProcesses#spawn}), killed and started again,
 * paused and resumed by pid, and ended with the cluster, the JVM's shutdown, and (by {@code setpriv --pdeathsig KILL},
 * which the subclass's command starts with) a SIGKILL of the JVM. A restarted server is up once it accepts a TCP
 * connection on its client port.
 */
public abstract class ChildServers implements Cluster, Killable, Pausable {
    private final List<ServerNode> nodes;
    private final Netns netns;
    private final String whose;
    private final ChildProcesses processes;
    private final Thread shutdownHook = new Thread(this::onExit, "lockchaos-servers-shutdown");
    private boolean closed;

    /**
     * @param what how messages name one server ({@code Hazelcast member})
     * @param whose how a warning about the namespaces names them ({@code the Hazelcast members'})
     * @param netns the servers' namespaces, one each, or null: closed with the servers
     */
    protected ChildServers(List<ServerNode> nodes, Netns netns, String what, String whose) {
        this.nodes = List.copyOf(nodes);
        this.netns = netns;
        this.whose = whose;
        this.processes = new ChildProcesses(what);
    }

    /** Starts server {@code n}'s process (its command beginning with {@code setpriv --pdeathsig KILL}). */
    protected abstract Process launch(ServerNode n) throws IOException;

    @Override
    public final List<ServerNode> nodes() {
        return nodes;
    }

    @Override
    public final Netns netns() {
        return netns;
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

    /** The running process of server {@code n}, or null. */
    protected final synchronized Process process(ServerNode n) {
        return processes.get(n.id());
    }

    /** The operating-system pid of a running server. */
    public final synchronized long pid(ServerNode n) {
        return processes.pid(n.id());
    }

    @Override
    public synchronized void kill(ServerNode n) {
        processes.kill(n.id());
    }

    /** Starts a killed server again; returns once it accepts connections. */
    @Override
    public synchronized void restart(ServerNode n) throws IOException {
        processes.requireStopped(n.id());
        processes.put(n.id(), launch(n));
        processes.awaitRestart(n.id(), () -> n.answers(200), 30, n.logFile().toString());
    }

    @Override
    public synchronized void pause(ServerNode n) {
        processes.signal(n.id(), "-STOP");
    }

    @Override
    public synchronized void resume(ServerNode n) {
        processes.signal(n.id(), "-CONT");
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        processes.killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // shutting down already, or never started
        }
        Netns.closeOrWarn(netns, whose);
    }

    private void onExit() {
        synchronized (this) {
            processes.killAll();
        }
        Netns.closeOrWarn(netns, whose);
    }
}
