package io.lockchaos.agent;

import java.util.List;

/**
 * The client agents of a run, wherever they run: child JVMs of the runner ({@link AgentLauncher}) or JVMs on other
 * hosts started over SSH ({@code io.lockchaos.ssh.SshAgents}). Clients are spread over them round robin.
 */
public interface ClientAgents extends AutoCloseable {
    List<AgentLauncher.Agent> agents();

    /** The agent that serves client {@code n} (round robin). */
    default AgentLauncher.Agent forClient(int n) {
        return agents().get(Math.floorMod(n, agents().size()));
    }

    /**
     * Adds {@code endpoints} ({@code host:port}) to the servers every agent may dial, through a channel only the runner
     * holds (the agent's standard input): an agent refuses an {@code open} naming any other. The runner calls this
     * before it opens a client on a server not allowed yet, servers added during the run included.
     *
     * @throws IOException when a live agent cannot be told
     */
    void allow(List<String> endpoints) throws java.io.IOException;

    /** How long starting every agent took, until each said where it listens. */
    long startMillis();

    /** The Curator version the agents report from their classpath. */
    default String curatorVersion() {
        return agents().get(0).curator();
    }

    /** Stops every agent; their sessions end with them. */
    @Override
    void close();
}
