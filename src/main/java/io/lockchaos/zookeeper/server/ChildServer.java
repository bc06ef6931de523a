package io.lockchaos.zookeeper.server;

import io.lockchaos.cluster.ParentWatchdog;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * Main class of a child ZooKeeper server: starts a watchdog that halts this JVM as soon as the parent process is gone
 * (so servers never outlive a runner, even one killed with SIGKILL), then runs {@link QuorumPeerMain} on the given
 * configuration (or {@link RoutedQuorumPeerMain} when the ensemble goes through proxies). Arguments: parent pid, path of
 * zoo.cfg. A parent pid of 0 starts no watchdog: that is the container case ({@link ContainerEnsemble}), where the
 * runner's pid means nothing inside the container and Testcontainers' reaper (Ryuk) removes the containers once the
 * runner's JVM is gone. A parent of {@code stdin} halts when standard input ends: the case of a server started over
 * SSH, whose input is the runner's connection.
 */
public final class ChildServer {
    private ChildServer() {
    }

    public static void main(String[] args) throws Exception {
        long parent = args[0].equals("stdin") ? 0 : Long.parseLong(args[0]);
        if (args[0].equals("stdin")) {
            ParentWatchdog.startOnEndOfInput();
        } else if (parent > 0) {
            ParentWatchdog.start(parent);
        }
        String advertise = System.getProperty(ADVERTISE);
        if (advertise == null) {
            QuorumPeerMain.main(new String[] {args[1]});
        } else {
            runRouted(RoutedQuorumPeerMain.parse(advertise), args[1]);
        }
    }


    /** System property naming, per peer id, the address that peer dials to reach this server's election port. */
    public static final String ADVERTISE = "lockchaos.advertise";

    /** As QuorumPeerMain.main does, with the routed peer; exits as it does. */
    private static void runRouted(java.util.Map<Long, java.net.InetSocketAddress> advertise, String config) {
        try {
            org.apache.zookeeper.server.quorum.QuorumPeerConfig c = new org.apache.zookeeper.server.quorum
                    .QuorumPeerConfig();
            c.parse(config);
            new RoutedQuorumPeerMain(advertise).runFromConfig(c);
        } catch (Exception e) {
            e.printStackTrace();
            Runtime.getRuntime().halt(1);
        }
        Runtime.getRuntime().halt(0);
    }
}
