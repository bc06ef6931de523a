package io.lockchaos.cluster;

import java.net.InetSocketAddress;

/**
 * Where one server reaches another's quorum and election ports. The direct routing uses the ports themselves; the
 * fault-injection layer routes each directed pair through its own proxy so the ensemble can be partitioned.
 */
public interface PeerRouting {
    InetSocketAddress quorum(ServerNode from, ServerNode to);

    InetSocketAddress election(ServerNode from, ServerNode to);

    /** No proxies: every server dials the others' own ports. */
    PeerRouting DIRECT = new PeerRouting() {
        @Override
        public InetSocketAddress quorum(ServerNode from, ServerNode to) {
            return new InetSocketAddress(to.host(), to.quorumPort());
        }

        @Override
        public InetSocketAddress election(ServerNode from, ServerNode to) {
            return new InetSocketAddress(to.host(), to.electionPort());
        }
    };
}
