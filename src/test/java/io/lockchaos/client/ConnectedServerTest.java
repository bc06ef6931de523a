package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which server a ZooKeeper session is on, read from the handle's description and placed in the connect string. */
class ConnectedServerTest {
    private static final String CONNECT = "127.0.0.1:40001,127.0.0.1:40002,127.0.0.1:40003";

    @Test
    void theRemoteServerIsFoundByItsAddressInTheConnectString() {
        // ZooKeeper 3.9.5's ClientCnxn.toString, after the handle's own "State:... Timeout:..."
        String description = "State:CONNECTED Timeout:4000 sessionid:0x1000c2e1f4a0002 local:/127.0.0.1:51234"
                + " remoteserver:127.0.0.1/127.0.0.1:40002 lastZxid:12 xid:9 sent:9 recv:10 queuedpkts:0"
                + " pendingresp:0 queuedevents:0";
        assertEquals(2, ClientContext.serverIn(description, CONNECT));
        assertEquals(3, ClientContext.serverIn(description.replace("40002", "40003"), CONNECT));
    }

    @Test
    void noRemoteServerOrOneOutsideTheConnectStringIsZero() {
        assertEquals(0, ClientContext.serverIn("State:CONNECTING sessionid:0x0 local:null remoteserver:null", CONNECT));
        assertEquals(0, ClientContext.serverIn("remoteserver:127.0.0.1/127.0.0.1:49999 lastZxid:0", CONNECT));
        assertEquals(0, ClientContext.serverIn("no description", CONNECT));
    }
}
