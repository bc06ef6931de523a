package io.lockchaos.pg;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A runner stand-in for {@link PgLocksTest}: starts a PostgreSQL server, holds an advisory lock on it, pauses the
 * server (SIGSTOP of every process), prints the postmaster's pid and the pid of the backend serving the lock, and
 * waits to be killed.
 */
public final class PgHolder {
    private PgHolder() {
    }

    public static void main(String[] args) throws Exception {
        PgServers servers = PgServers.create(Path.of(args[0]), 1, false);
        servers.start();
        servers.awaitHealthy(Duration.ofSeconds(60));
        var n = servers.nodes().get(0);
        AdvisoryLock lock = new AdvisoryLock(n.clientAddress(), "/held", Duration.ofSeconds(5));
        lock.acquire(Duration.ofSeconds(5));
        servers.pause(n); // a stopped backend would never notice its postmaster die: the reaper must end it
        System.out.println(servers.pid(n) + " " + lock.backendPid());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
