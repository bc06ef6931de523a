package io.lockchaos.own;

import java.nio.file.Path;
import java.time.Duration;

/** A runner stand-in for {@link OwnServersTest}: starts two servers of a lock's own, prints their pids, waits. */
public final class OwnHolder {
    private OwnHolder() {
    }

    public static void main(String[] args) throws Exception {
        OwnServers servers = OwnServersTest.servers(Path.of(args[0]), 2);
        servers.start();
        servers.awaitHealthy(Duration.ofSeconds(30));
        System.out.println(servers.pid(servers.nodes().get(0)) + " " + servers.pid(servers.nodes().get(1)));
        System.out.flush();
        Thread.sleep(120_000);
    }
}
