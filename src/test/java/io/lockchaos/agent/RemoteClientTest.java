package io.lockchaos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.api.Grant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runner's side of the agent protocol against a scripted stand-in for the agent (no JVM, no ZooKeeper): what it
 * does when the agent answers, errs, stays silent or hangs up.
 */
@Timeout(30)
class RemoteClientTest {
    private ServerSocket server;
    private RemoteClient client;
    /** Every request the stand-in received, decoded. */
    private final LinkedBlockingQueue<Map<String, Object>> requests = new LinkedBlockingQueue<>();
    /** Completes when the stand-in sees the runner close the connection. */
    private final CompletableFuture<Void> hungUp = new CompletableFuture<>();

    /**
     * Starts a stand-in agent on loopback that answers each request with {@code answer} (null: no answer); the
     * answer gets the request's id.
     */
    private InetSocketAddress agent(Function<Map<String, Object>, Map<String, Object>> answer) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            try (Socket s = server.accept();
                 BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                         StandardCharsets.UTF_8));
                 Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    Map<String, Object> req = AgentWire.decode(line);
                    requests.add(req);
                    Map<String, Object> a = answer.apply(req);
                    if (a != null) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("id", req.get("id"));
                        m.putAll(a);
                        out.write(AgentWire.encode(m) + "\n");
                        out.flush();
                    }
                }
                hungUp.complete(null);
            } catch (IOException | RuntimeException e) {
                // a stand-in that throws hangs up, as a crashed agent's connection ends
                hungUp.complete(null);
            }
        }, "stand-in-agent");
        t.setDaemon(true);
        t.start();
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @AfterEach
    void close() throws IOException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anAgentThatNeverAnswersEndsTheAcquireAfterItsBoundAndLosesItsConnection() throws Exception {
        client = RemoteClient.connect(agent(req -> null), Duration.ofMillis(300));
        long t0 = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> client.acquire(Duration.ofMillis(200)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("client agent did not answer acquire within 500 ms", e.getMessage());
        assertTrue(ms >= 500, "gave up after " + ms + " ms");
        Map<String, Object> req = requests.poll(5, TimeUnit.SECONDS);
        assertEquals("acquire", req.get("op"));
        assertEquals(200L, ((Number) req.get("timeout_ms")).longValue(), "the agent is told the op's own timeout");
        // the runner closes the connection, so the agent drops the session as a crashed client's would be dropped
        hungUp.get(5, TimeUnit.SECONDS);
        IOException after = assertThrows(IOException.class, () -> client.release());
        assertEquals("client agent connection lost", after.getMessage());
    }

    @Test
    void aGrantAnErrorAndAMissingFieldAreToldApart() throws Exception {
        client = RemoteClient.connect(agent(req -> switch ((String) req.get("op")) {
            case "acquire" -> ((Number) req.get("timeout_ms")).longValue() == 1 ? noGrant()
                    : Map.of("grant", Map.of("node", "/l/lock-0000000003", "czxid", 17, "session", 5, "owner", 5,
                            "seq", 3, "notifications", 0));
            case "release" -> requests.size() == 2 ? Map.of("present", true) : Map.of("something", "else");
            default -> Map.of("error", "KeeperException: ConnectionLoss");
        }), Duration.ofSeconds(5));
        Grant g = client.acquire(Duration.ofMillis(50));
        assertEquals(new Grant("/l/lock-0000000003", 17, 5, 5, 3, 0), g);
        assertEquals(Map.of(), g.facts());
        assertTrue(client.release());
        assertNull(client.acquire(Duration.ofMillis(1)), "an acquire that timed out has no grant");
        IOException bad = assertThrows(IOException.class, () -> client.release());
        assertTrue(bad.getMessage().startsWith("client agent: release answered without a present field"),
                bad.getMessage());
        RemoteClient.AgentException err = assertThrows(RemoteClient.AgentException.class,
                () -> client.expireClientSide());
        assertTrue(err.toString().contains("ConnectionLoss"), err.toString());
    }

    /** The agent's answer to an acquire that timed out: a grant field that is null. */
    private static Map<String, Object> noGrant() {
        Map<String, Object> m = new java.util.HashMap<>();
        m.put("grant", null);
        return m;
    }

    @Test
    void anAgentThatHangsUpFailsTheWaitingAcquireAtOnce() throws Exception {
        client = RemoteClient.connect(agent(req -> {
            throw new IllegalStateException("the stand-in dies");
        }), Duration.ofSeconds(60));
        long t0 = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> client.acquire(Duration.ofSeconds(10)));
        assertEquals("client agent connection lost", e.getMessage());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "it did not wait out the acquire's timeout");
    }
}
