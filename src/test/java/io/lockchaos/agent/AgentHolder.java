package io.lockchaos.agent;

import java.nio.file.Path;

/** A runner stand-in for {@link AgentMainTest}: starts client agents, prints their pids, waits to be killed. */
public final class AgentHolder {
    private AgentHolder() {
    }

    public static void main(String[] args) throws Exception {
        AgentLauncher agents = AgentLauncher.start(VersionResolver.defaults().classpath(args[1]), 2, Path.of(args[0]));
        StringBuilder pids = new StringBuilder();
        for (AgentLauncher.Agent a : agents.agents()) {
            pids.append(pids.length() == 0 ? "" : " ").append(a.process().pid());
        }
        System.out.println(pids);
        System.out.flush();
        Thread.sleep(120_000);
    }
}
