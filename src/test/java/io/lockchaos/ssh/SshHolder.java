package io.lockchaos.ssh;

import io.lockchaos.cluster.ServerNode;
import io.lockchaos.nemesis.IptablesPartitioner;
import io.lockchaos.zookeeper.SshEnsemble;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A runner to be killed: starts an ensemble over SSH on the given hosts, cuts one link, pauses a server (a stopped
 * process reads no end of input: only the keeper can end it), starts a client agent on the first host, prints {@code
 * ready RUN AGENT_PORT} and waits.
 * Arguments: key, known-hosts file, run folder, then the hosts.
 */
public final class SshHolder {
    private SshHolder() {
    }

    public static void main(String[] args) throws Exception {
        SshOptions o = new SshOptions("root", Path.of(args[0]), 22, Path.of(args[1]), false);
        List<String> hosts = List.of(args).subList(3, args.length);
        SshEnsemble zk = SshEnsemble.builder(Path.of(args[2])).hosts(hosts).options(o).build();
        zk.start();
        zk.awaitHealthy(Duration.ofSeconds(60));
        List<ServerNode> nodes = zk.nodes();
        new IptablesPartitioner(zk.namespaces()).cutOneWay(nodes.get(0), nodes.get(1), "lockchaos-1");
        zk.pause(nodes.get(2));
        SshAgents agents = SshAgents.start(hosts.subList(0, 1), o, Path.of(args[2]).resolve("agents"));
        System.out.println("ready " + zk.runId() + " " + agents.agents().get(0).address().getPort());
        System.out.flush();
        Thread.sleep(600_000);
    }
}
