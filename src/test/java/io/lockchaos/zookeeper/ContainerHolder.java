package io.lockchaos.zookeeper;

import java.nio.file.Files;
import java.time.Duration;

/** A runner stand-in for {@link ContainerSweepTest}: starts a 1-server container ensemble, prints its id, waits. */
public final class ContainerHolder {
    private ContainerHolder() {
    }

    public static void main(String[] args) throws Exception {
        ContainerEnsemble zk = ContainerEnsemble.builder(Files.createTempDirectory("holder")).size(1).build();
        zk.start();
        zk.awaitHealthy(Duration.ofSeconds(120));
        System.out.println(zk.containerId(zk.nodes().get(0)));
        System.out.flush();
        Thread.sleep(300_000);
    }
}
