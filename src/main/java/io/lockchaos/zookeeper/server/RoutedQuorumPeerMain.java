package io.lockchaos.zookeeper.server;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import javax.security.sasl.SaslException;
import org.apache.zookeeper.server.quorum.MultipleAddresses;
import org.apache.zookeeper.server.quorum.QuorumCnxManager;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;
import org.apache.zookeeper.server.quorum.auth.NullQuorumAuthLearner;
import org.apache.zookeeper.server.quorum.auth.NullQuorumAuthServer;

/**
 * QuorumPeerMain for a server whose peers reach it through per-pair proxies. In leader election a server that gets a
 * connection from a lower id drops it and dials back the address that lower server advertised, which is its real
 * election port: that connection would bypass every proxy, and a partition could not cut it. So this server
 * advertises, to each peer, the address that peer itself uses to reach it (its proxy for that pair). Nothing else
 * changes: it binds the same ports and speaks the same protocol.
 */
public final class RoutedQuorumPeerMain extends QuorumPeerMain {
    private final Map<Long, InetSocketAddress> advertise;

    /** @param advertise for each peer id, the address that peer dials to reach this server's election port */
    RoutedQuorumPeerMain(Map<Long, InetSocketAddress> advertise) {
        this.advertise = Map.copyOf(advertise);
    }

    /** Parses {@code id=host:port,id=host:port}. */
    public static Map<Long, InetSocketAddress> parse(String spec) {
        Map<Long, InetSocketAddress> m = new HashMap<>();
        for (String entry : spec.split(",")) {
            String[] kv = entry.split("=");
            int colon = kv[1].lastIndexOf(':');
            m.put(Long.parseLong(kv[0]), new InetSocketAddress(kv[1].substring(0, colon),
                    Integer.parseInt(kv[1].substring(colon + 1))));
        }
        return m;
    }

    /** Formats what {@link #parse} reads. */
    public static String format(Map<Long, InetSocketAddress> m) {
        StringBuilder s = new StringBuilder();
        m.forEach((id, a) -> s.append(s.length() == 0 ? "" : ",").append(id).append('=')
                .append(a.getHostString()).append(':').append(a.getPort()));
        return s.toString();
    }

    @Override
    protected QuorumPeer getQuorumPeer() throws SaslException {
        return new RoutedPeer(advertise);
    }

    /** A peer whose election address, as sent to one peer while dialling it, is that peer's route to us. */
    private static final class RoutedPeer extends QuorumPeer {
        /** The peer this thread is dialling, while it writes the initial message. */
        private static final ThreadLocal<Long> DIALLING = new ThreadLocal<>();
        private final Map<Long, InetSocketAddress> advertise;

        RoutedPeer(Map<Long, InetSocketAddress> advertise) throws SaslException {
            this.advertise = advertise;
        }

        @Override
        public MultipleAddresses getElectionAddress() {
            Long to = DIALLING.get();
            InetSocketAddress a = to == null ? null : advertise.get(to);
            // the listener asks outside any dial and binds the real address
            return a == null ? super.getElectionAddress() : new MultipleAddresses(a);
        }

        @Override
        public QuorumCnxManager createCnxnManager() {
            // as QuorumPeer's own, with authentication off (lockchaos never enables quorum SASL)
            return new QuorumCnxManager(this, getMyId(), getView(), new NullQuorumAuthServer(),
                    new NullQuorumAuthLearner(), getTickTime() * getSyncLimit(), getQuorumListenOnAllIPs(),
                    quorumCnxnThreadsSize, false) {
                @Override
                public void initiateConnection(MultipleAddresses electionAddr, Long sid) {
                    DIALLING.set(sid);
                    try {
                        super.initiateConnection(electionAddr, sid);
                    } finally {
                        DIALLING.remove();
                    }
                }
            };
        }
    }
}
