package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.Proxy;
import io.lockchaos.cluster.ContainerAddresses;
import io.lockchaos.cluster.ServerNode;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where proxies listen and how they are reached, without Docker and without ZooKeeper. */
class ProxyPlacementTest {
    private static final List<ServerNode> NODES = List.of(
            new ServerNode(1, "127.0.0.1", 40001, 40011, 40021, null, null),
            new ServerNode(2, "127.0.0.1", 40002, 40012, 40022, null, null));

    @Test
    void loopbackProxiesListenOnAFreeLoopbackPortAndForwardToTheServersOwnPorts() throws Exception {
        try (ToxiproxyBackend b = ToxiproxyBackends.embedded()) {
            ProxyNetwork net = new ProxyNetwork(b.client(), b.placement());
            String connect = net.clientConnectString(3, NODES);
            Proxy c1 = b.client().getProxy("client-3-n1");
            assertEquals("127.0.0.1:40001", c1.getUpstream());
            assertTrue(connect.startsWith(c1.getListen() + ","), connect);
            assertFalse(c1.getListen().endsWith(":0"));
            InetSocketAddress q = net.quorum(NODES.get(0), NODES.get(1));
            Proxy p = b.client().getProxy("peer-quorum-1-2");
            assertEquals("127.0.0.1:40012", p.getUpstream());
            assertEquals(p.getListen(), q.getHostString() + ":" + q.getPort());
            InetSocketAddress e = net.election(NODES.get(0), NODES.get(1));
            Proxy pe = b.client().getProxy("peer-election-1-2");
            assertEquals("127.0.0.1:40022", pe.getUpstream());
            assertEquals(pe.getListen(), e.getHostString() + ":" + e.getPort());
            assertEquals(Integer.MAX_VALUE, b.clientProxyCapacity());
        }
    }

    @Test
    void containerClientProxiesUsePublishedPortsUntilTheyRunOut() {
        ContainerToxiproxy.Placement p = new ContainerToxiproxy.Placement("localhost", port -> port + 30000, 32,
                new ContainerAddresses("zk", 2181, 2888, 3888));
        for (int i = 0; i < 32; i++) {
            assertEquals("0.0.0.0:" + (8666 + i), p.listen("client-" + i + "-n1", true));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.listen("client-32-n1", true));
        assertFalse(e.getMessage().contains("\n"));
        assertTrue(e.getMessage().startsWith("toxiproxy container: client proxy client-32-n1 needs a published port,"
                + " but all 32 (8666-8697) are taken"), e.getMessage());
        InetSocketAddress c = p.clientSide("[::]:8666");
        assertEquals("localhost", c.getHostString());
        assertEquals(38666, c.getPort());
    }

    @Test
    void containerPeerProxiesNeverRunOutAndAreReachedOnTheNetwork() {
        ContainerToxiproxy.Placement p = new ContainerToxiproxy.Placement("localhost", port -> port, 32,
                new ContainerAddresses("zk", 2181, 2888, 3888));
        for (int i = 0; i < 40; i++) { // 5 servers: 2 proxies per directed pair
            assertEquals("0.0.0.0:" + (9000 + i), p.listen("peer-" + i, false));
        }
        InetSocketAddress s = p.serverSide("0.0.0.0:9003");
        assertTrue(s.isUnresolved());
        assertEquals("toxiproxy:9003", s.getHostString() + ":" + s.getPort());
        assertEquals("zk2:2181", p.upstream(NODES.get(1), ProxyPlacement.Target.CLIENT));
        assertEquals("zk2:2888", p.upstream(NODES.get(1), ProxyPlacement.Target.QUORUM));
        assertEquals("zk2:3888", p.upstream(NODES.get(1), ProxyPlacement.Target.ELECTION));
    }
}
