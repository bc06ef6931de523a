package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The configuration as ZooKeeper hands it back from a reconfiguration, and the line that adds a server back. */
class MembershipTest {
    @Test
    void aConfigurationGivesItsMembersAndVersion() {
        Membership.Config c = Membership.parse("server.1=127.0.0.1:42771:39409:participant\n"
                + "server.3=127.0.0.1:35535:40761:participant;127.0.0.1:45351\n"
                + "server.2=127.0.0.1:41201:43111:participant\nversion=200000001");
        assertEquals(List.of(1, 2, 3), c.members());
        assertEquals("200000001", c.version());
    }

    @Test
    void aServerComesBackAsAVotingMemberWithItsClientAddress() {
        ServerNode n = new ServerNode(3, "10.213.4.3", 2181, 2888, 3888, Path.of("d"), Path.of("l"));
        assertEquals("server.3=10.213.4.3:2888:3888:participant;10.213.4.3:2181", Membership.serverLine(n));
    }
}
