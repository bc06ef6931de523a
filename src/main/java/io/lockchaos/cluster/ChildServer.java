package io.lockchaos.cluster;

import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * Main class of a child ZooKeeper server: starts a watchdog that halts this JVM as soon as the parent process is gone
 * (so servers never outlive a runner, even one killed with SIGKILL), then runs {@link QuorumPeerMain} on the given
 * configuration. Arguments: parent pid, path of zoo.cfg.
 */
public final class ChildServer {
    private ChildServer() {
    }

    public static void main(String[] args) throws Exception {
        long parent = Long.parseLong(args[0]);
        Thread watchdog = new Thread(() -> {
            ProcessHandle p = ProcessHandle.of(parent).orElse(null);
            while (p != null && p.isAlive()) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
            Runtime.getRuntime().halt(3);
        }, "lockchaos-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        QuorumPeerMain.main(new String[] {args[1]});
    }
}
