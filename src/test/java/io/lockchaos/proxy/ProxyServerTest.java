package io.lockchaos.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drives the embedded server only through toxiproxy-java, as nemesis code does, and proves each toxic by measuring
 * its effect on a real TCP round trip through an echo upstream. Time bounds are generous lower bounds (a toxic can
 * only make things slower); upper bounds appear only where an effect must be absent, with wide margins.
 */
class ProxyServerTest {
    private ProxyServer server;
    private ToxiproxyClient client;
    private EchoServer echo;

    @BeforeEach
    void start() throws IOException {
        server = ProxyServer.start(0);
        client = new ToxiproxyClient(server.host(), server.port());
        echo = EchoServer.start();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        echo.close();
    }

    // ---- API

    @Test
    void versionAndEmptyList() throws IOException {
        assertFalse(client.version().isEmpty());
        assertTrue(client.getProxies().isEmpty());
        assertTrue(server.url().startsWith("http://127.0.0.1:"));
    }

    @Test
    void createListGetUpdateDelete() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        assertTrue(p.getListen().startsWith("127.0.0.1:"));
        assertNotEquals(0, port(p), "listen port 0 is resolved to the bound port");
        assertTrue(p.isEnabled());
        assertEquals(echo.address(), p.getUpstream());
        assertEquals("zk1", client.getProxies().get(0).getName());
        assertEquals(p.getListen(), client.getProxy("zk1").getListen());
        try (Socket s = connect(p)) {
            assertEquals("hello", roundTrip(s, "hello"));
        }

        try (EchoServer other = EchoServer.start()) {
            p.setUpstream(other.address());
            assertEquals(other.address(), client.getProxy("zk1").getUpstream());
            try (Socket s = connect(p)) {
                assertEquals("again", roundTrip(s, "again"));
            }
            assertEquals(1, other.accepted());
        }

        p.delete();
        assertNull(client.getProxyOrNull("zk1"));
        assertTrue(client.getProxies().isEmpty());
        assertThrows(ConnectException.class, () -> connect(p));
    }

    @Test
    void duplicatesAreConflicts() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        IOException proxyDup = assertThrows(IOException.class,
                () -> client.createProxy("zk1", "127.0.0.1:0", echo.address()));
        assertTrue(proxyDup.getMessage().contains("409"), proxyDup.getMessage());
        p.toxics().latency("slow", ToxicDirection.DOWNSTREAM, 10);
        IOException toxicDup = assertThrows(IOException.class,
                () -> p.toxics().latency("slow", ToxicDirection.UPSTREAM, 10));
        assertTrue(toxicDup.getMessage().contains("409"), toxicDup.getMessage());
    }

    @Test
    void onlyLoopbackListenAddressesAreAccepted() throws IOException {
        for (String listen : new String[] {"0.0.0.0:0", ":0", "192.168.1.1:0"}) {
            IOException e = assertThrows(IOException.class, () -> client.createProxy("open", listen, echo.address()));
            assertTrue(e.getMessage().contains("400") && e.getMessage().contains("127.0.0.1"), e.getMessage());
        }
        assertTrue(client.getProxies().isEmpty());
        Proxy p = client.createProxy("local", "localhost:0", echo.address());
        assertTrue(p.getListen().startsWith("127.0.0.1:"), p.getListen());
    }

    @Test
    void disableRefusesConnectionsAndEnableAcceptsThemAgain() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        int port = port(p);
        try (Socket open = connect(p)) {
            assertEquals("a", roundTrip(open, "a"));
            p.disable();
            assertFalse(p.isEnabled());
            assertClosed(open);
        }
        assertThrows(ConnectException.class, () -> connect(p));
        p.enable();
        assertEquals(port, port(p), "enabling listens on the same port again");
        try (Socket s = connect(p)) {
            assertEquals("b", roundTrip(s, "b"));
        }
    }

    @Test
    void resetEnablesProxiesAndRemovesToxics() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().timeout("blackhole", ToxicDirection.UPSTREAM, 0);
        p.disable();
        client.reset();
        assertTrue(p.isEnabled());
        assertTrue(p.toxics().getAll().isEmpty());
        try (Socket s = connect(p)) {
            assertEquals("ok", roundTrip(s, "ok"));
        }
    }

    @Test
    void toxicsCanBeListedReadUpdatedAndRemoved() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        Latency latency = p.toxics().latency("slow", ToxicDirection.UPSTREAM, 100).setJitter(5);
        assertEquals(ToxicDirection.UPSTREAM, latency.getStream());
        assertEquals(1f, latency.getToxicity());
        assertEquals("latency_downstream", p.toxics().latency(null, ToxicDirection.DOWNSTREAM, 1).getName(),
                "a toxic without a name is called <type>_<stream>");
        assertEquals(2, p.toxics().getAll().size());

        latency.setLatency(500);
        latency.setToxicity(0.5f);
        Latency read = p.toxics().get("slow", Latency.class);
        assertEquals(500, read.getLatency());
        assertEquals(5, read.getJitter(), "an update merges attributes");
        assertEquals(0.5f, read.getToxicity());

        read.remove();
        assertEquals(1, p.toxics().getAll().size());
        IOException missing = assertThrows(IOException.class, () -> p.toxics().get("slow"));
        assertTrue(missing.getMessage().contains("404"), missing.getMessage());
    }

    // ---- toxics, each proven by measurement

    @Test
    void latencyDelaysEachRoundTrip() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().latency("slow", ToxicDirection.UPSTREAM, 300);
        try (Socket s = connect(p)) {
            long start = System.nanoTime();
            assertEquals("ping", roundTrip(s, "ping"));
            assertTrue(millisSince(start) >= 280, "round trip took " + millisSince(start) + " ms");
        }
    }

    @Test
    void toxicsAffectAnAlreadyOpenConnection() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        try (Socket s = connect(p)) {
            assertEquals("warm", roundTrip(s, "warm"));
            Latency slow = p.toxics().latency("slow", ToxicDirection.DOWNSTREAM, 1000);
            long start = System.nanoTime();
            assertEquals("slow", roundTrip(s, "slow"));
            assertTrue(millisSince(start) >= 950, "with the toxic: " + millisSince(start) + " ms");
            slow.remove();
            start = System.nanoTime();
            assertEquals("fast", roundTrip(s, "fast"));
            assertTrue(millisSince(start) < 500, "after removal: " + millisSince(start) + " ms");
        }
    }

    @Test
    void blackholeDropsDataWhileActiveAndItsRemovalClosesTheConnectionAsToxiproxyDoes() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        try (Socket s = connect(p)) {
            assertEquals("x", roundTrip(s, "x"));
            p.toxics().timeout("blackhole", ToxicDirection.UPSTREAM, 0);
            s.setSoTimeout(500);
            s.getOutputStream().write("lost".getBytes(StandardCharsets.US_ASCII));
            assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read());
            p.toxics().get("blackhole").remove();
            s.setSoTimeout(5000);
            assertEquals(-1, s.getInputStream().read(), "the connection that lost data is closed, not resumed");
        }
        try (Socket s = connect(p)) {
            assertEquals("back", roundTrip(s, "back"), "new connections pass again");
        }
    }

    @Test
    void timeoutClosesTheConnectionAfterItsDelay() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().timeout("cut", ToxicDirection.DOWNSTREAM, 300);
        try (Socket s = connect(p)) {
            long start = System.nanoTime();
            s.getOutputStream().write('x');
            assertEquals(-1, s.getInputStream().read(), "no data, then end of stream");
            assertTrue(millisSince(start) >= 250, "closed after " + millisSince(start) + " ms");
        }
    }

    @Test
    void resetPeerResetsTheConnection() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        try (Socket s = connect(p)) {
            assertEquals("x", roundTrip(s, "x"));
            long start = System.nanoTime();
            p.toxics().resetPeer("rst", ToxicDirection.DOWNSTREAM, 200);
            SocketException e = assertThrows(SocketException.class, () -> s.getInputStream().read());
            assertTrue(e.getMessage().toLowerCase().contains("reset"), e.getMessage());
            assertTrue(millisSince(start) >= 150, "reset after " + millisSince(start) + " ms");
        }
    }

    @Test
    void limitDataClosesAfterThatManyBytes() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().limitData("limit", ToxicDirection.DOWNSTREAM, 10);
        try (Socket s = connect(p)) {
            s.getOutputStream().write(new byte[100]);
            assertEquals(10, s.getInputStream().readAllBytes().length);
        }
    }

    @Test
    void bandwidthLimitsThroughput() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().bandwidth("narrow", ToxicDirection.UPSTREAM, 20); // 20 KB/s
        byte[] data = randomBytes(30_000);
        try (Socket s = connect(p)) {
            long start = System.nanoTime();
            s.getOutputStream().write(data);
            assertArrayEquals(data, s.getInputStream().readNBytes(data.length));
            assertTrue(millisSince(start) >= 1200, "30 KB at 20 KB/s took " + millisSince(start) + " ms");
        }
    }

    @Test
    void slicerDeliversIntactDataInDelayedPieces() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().slicer("slices", ToxicDirection.DOWNSTREAM, 10, 1000).setSizeVariation(5); // delay in µs
        byte[] data = randomBytes(2_000);
        try (Socket s = connect(p)) {
            long start = System.nanoTime();
            s.getOutputStream().write(data);
            assertArrayEquals(data, s.getInputStream().readNBytes(data.length));
            // at least 2000 / 15 pieces, 1 ms apart
            assertTrue(millisSince(start) >= 100, "slicing took " + millisSince(start) + " ms");
        }
    }

    @Test
    void slowCloseDelaysTheClose() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().slowClose("lingering", ToxicDirection.DOWNSTREAM, 500);
        try (Socket s = connect(p)) {
            assertEquals("x", roundTrip(s, "x"));
            long start = System.nanoTime();
            s.shutdownOutput(); // the echo server closes in turn; the proxy must hold that close back
            assertEquals(-1, s.getInputStream().read());
            assertTrue(millisSince(start) >= 450, "close seen after " + millisSince(start) + " ms");
        }
    }

    @Test
    void toxicityZeroMeansNoEffect() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().latency("slow", ToxicDirection.DOWNSTREAM, 1000).setToxicity(0f);
        try (Socket s = connect(p)) {
            long start = System.nanoTime();
            assertEquals("quick", roundTrip(s, "quick"));
            assertTrue(millisSince(start) < 500, "round trip took " + millisSince(start) + " ms");
        }
    }

    // ---- lifecycle

    @Test
    void unreachableUpstreamClosesTheClient() throws IOException {
        String dead;
        try (EchoServer gone = EchoServer.start()) {
            dead = gone.address();
        }
        Proxy p = client.createProxy("dead", "127.0.0.1:0", dead);
        try (Socket s = connect(p)) {
            assertClosed(s);
        }
    }

    @Test
    void closingTheServerClosesItsConnections() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        try (Socket s = connect(p)) {
            assertEquals("x", roundTrip(s, "x"));
            server.close();
            assertClosed(s);
            assertThrows(ConnectException.class, () -> connect(p));
        }
    }

    @Test
    void allThreadsAreDaemons() throws IOException {
        Proxy p = client.createProxy("zk1", "127.0.0.1:0", echo.address());
        p.toxics().latency("slow", ToxicDirection.DOWNSTREAM, 1);
        try (Socket s = connect(p)) {
            assertEquals("x", roundTrip(s, "x"));
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("lockchaos-proxy") || t.getName().startsWith("HTTP-Dispatcher")) {
                    assertTrue(t.isDaemon(), t.getName() + " would keep the JVM alive");
                }
            }
        }
    }

    // ---- helpers

    private static int port(Proxy p) {
        String listen = p.getListen();
        return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    }

    private static Socket connect(Proxy p) throws IOException {
        Socket s = new Socket("127.0.0.1", port(p));
        s.setTcpNoDelay(true);
        s.setSoTimeout(5000); // no test may hang on a proxy bug
        return s;
    }

    private static String roundTrip(Socket s, String message) throws IOException {
        byte[] bytes = message.getBytes(StandardCharsets.US_ASCII);
        s.getOutputStream().write(bytes);
        return new String(s.getInputStream().readNBytes(bytes.length), StandardCharsets.US_ASCII);
    }

    /** Asserts the peer closed: end of stream or a reset, not a timeout. */
    private static void assertClosed(Socket s) {
        try {
            InputStream in = s.getInputStream();
            assertEquals(-1, in.read());
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection stayed open", e);
        } catch (IOException e) {
            // a reset also proves the close
        }
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new Random(42).nextBytes(b);
        return b;
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
