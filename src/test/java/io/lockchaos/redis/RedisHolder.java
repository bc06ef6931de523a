package io.lockchaos.redis;

import java.nio.file.Path;

/** A runner stand-in for {@link RedisServersTest}: starts Redis instances, prints their pids, waits to be killed. */
public final class RedisHolder {
    private RedisHolder() {
    }

    public static void main(String[] args) throws Exception {
        RedisServers servers = RedisServers.builder(Path.of(args[0])).size(3).build();
        servers.start();
        servers.awaitHealthy(java.time.Duration.ofSeconds(20));
        StringBuilder pids = new StringBuilder();
        for (var n : servers.nodes()) {
            pids.append(pids.length() == 0 ? "" : " ").append(servers.pid(n));
        }
        System.out.println(pids);
        System.out.flush();
        Thread.sleep(120_000);
    }
}
