package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerNode;
import io.lockchaos.zookeeper.server.ChildServer;
import io.lockchaos.zookeeper.server.RoutedQuorumPeerMain;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * What every ensemble lockchaos starts has in common, wherever its servers run: the zoo.cfg keys, the JVM flags of a
 * child server, the address each server advertises to each peer (see {@link RoutedQuorumPeerMain}) and the checks
 * of a builder's size and tickTime.
 */
public final class ZooCfg {
    private ZooCfg() {
    }

    /** 1, 3 or 5, or an exception naming the key. */
    public static int checkSize(int n) {
        if (n != 1 && n != 3 && n != 5) {
            throw new IllegalArgumentException("nodes: expected 1, 3 or 5, got " + n);
        }
        return n;
    }

    /** At least 10 ms, or an exception naming the key. */
    public static int checkTickTime(int ms) {
        if (ms < 10) {
            throw new IllegalArgumentException("tickTime: must be at least 10 ms, got " + ms);
        }
        return ms;
    }

    /** {@code key} when it is a system property name a server's command line may carry. */
    public static String checkPropertyName(String key) {
        if (!key.matches("[A-Za-z0-9_.]+")) {
            throw new IllegalArgumentException("not a property name: " + key);
        }
        return key;
    }

    /** The JVM flags of a child server: small, quick to start (no C2, no TLS use), IPv4, logging with times. */
    public static List<String> jvmFlags() {
        return List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto",
                "-Djava.net.preferIPv4Stack=true",
                "-Dzookeeper.admin.enableServer=false",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");
    }

    /**
     * The zoo.cfg of server {@code n}.
     *
     * @param quorum where {@code n} reaches a server's quorum port: (n, peer) to an address, for every server
     *     including {@code n} itself (which binds it)
     * @param election the same for the election port
     */
    public static String text(ServerNode n, List<ServerNode> nodes, int tickTime, String dataDir, int clientPort,
                       String clientAddress, BiFunction<ServerNode, ServerNode, InetSocketAddress> quorum,
                       BiFunction<ServerNode, ServerNode, InetSocketAddress> election, Map<String, String> extra) {
        Map<String, String> cfg = new LinkedHashMap<>();
        cfg.put("tickTime", Integer.toString(tickTime));
        cfg.put("initLimit", "10");
        cfg.put("syncLimit", "5");
        cfg.put("dataDir", dataDir);
        cfg.put("clientPort", Integer.toString(clientPort));
        cfg.put("clientPortAddress", clientAddress);
        cfg.put("admin.enableServer", "false");
        cfg.put("4lw.commands.whitelist", "srvr,mntr,dump,cons,ruok");
        cfg.put("maxClientCnxns", "0");
        if (nodes.size() > 1) {
            for (ServerNode peer : nodes) {
                InetSocketAddress q = quorum.apply(n, peer);
                InetSocketAddress e = election.apply(n, peer);
                if (!q.getHostString().equals(e.getHostString())) {
                    throw new IllegalArgumentException("routing: quorum and election hosts of server " + peer.id()
                            + " differ");
                }
                cfg.put("server." + peer.myid(), q.getHostString() + ":" + q.getPort() + ":" + e.getPort());
            }
        }
        cfg.putAll(extra);
        StringBuilder text = new StringBuilder();
        cfg.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        return text.toString();
    }

    /**
     * The {@code -D} flag that makes server {@code n} advertise to each peer the address that peer dials to reach
     * it, or null when there is nothing to route (direct routing, or a single server).
     */
    static String advertiseFlag(ServerNode n, List<ServerNode> nodes, boolean routed,
                                BiFunction<ServerNode, ServerNode, InetSocketAddress> election) {
        if (!routed || nodes.size() < 2) {
            return null;
        }
        Map<Long, InetSocketAddress> advertise = new LinkedHashMap<>();
        for (ServerNode peer : nodes) {
            if (peer.id() != n.id()) {
                advertise.put((long) peer.myid(), election.apply(peer, n));
            }
        }
        return "-D" + ChildServer.ADVERTISE + "=" + RoutedQuorumPeerMain.format(advertise);
    }
}
