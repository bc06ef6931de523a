package io.lockchaos.etcd;

import java.nio.file.Path;

/** A runner stand-in for {@link EtcdLocksTest}: starts three etcd members, prints their pids, waits to be killed. */
public final class EtcdHolder {
    private EtcdHolder() {
    }

    public static void main(String[] args) throws Exception {
        EtcdServers servers = EtcdServers.create(Path.of(args[0]), 3);
        servers.start();
        servers.awaitHealthy(java.time.Duration.ofSeconds(30));
        StringBuilder pids = new StringBuilder();
        for (var n : servers.nodes()) {
            pids.append(pids.length() == 0 ? "" : " ").append(servers.pid(n));
        }
        System.out.println(pids);
        System.out.flush();
        Thread.sleep(120_000);
    }
}
