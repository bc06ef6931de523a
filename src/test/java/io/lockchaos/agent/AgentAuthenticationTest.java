package io.lockchaos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.client.LockSettings;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client agent started on this machine, seen from another local user who found its port: a connection without the
 * proof of the run's secret is refused, an over-long line closes the connection without the agent reading it all, and
 * an {@code open} naming a server the runner did not give is refused before anything is dialled.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts a client agent
class AgentAuthenticationTest {
    private static AgentLauncher agents;
    @org.junit.jupiter.api.io.TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        agents = AgentLauncher.startOwn(1, dir.resolve("agents"), null);
        agents.allow(List.of("127.0.0.1:1"));
    }

    @AfterAll
    static void stop() {
        if (agents != null) {
            agents.close();
        }
    }

    private static AgentLauncher.Agent agent() {
        return agents.agents().get(0);
    }

    /** Everything the agent sends on a connection that sends {@code request} first, until it closes it (or 15 s). */
    private static String exchange(String request) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(agent().address(), 5_000);
            s.setSoTimeout(15_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aConnectionWithoutTheProofIsRefusedAndLogged() throws Exception {
        // one line only: a line the agent leaves unread would reset the connection as it closes
        String got = exchange(AgentWire.encode(Map.of("id", 1, "op", "clock")) + "\n");
        assertTrue(got.startsWith("{\"challenge\":"), "a challenge comes first: " + got);
        assertEquals(1, got.lines().count(), "nothing but the challenge, then closed: " + got);
        assertThrows(java.io.IOException.class, () -> RemoteClient.connect(agent().address(),
                AgentLauncher.newSecret()), "another secret is refused");
        String log = Files.readString(dir.resolve("agents/agent-1.log"));
        assertTrue(log.contains("refused a connection from"), log);
    }

    @Test
    void theSecretIsOnNoCommandLine() throws Exception {
        String secret = new String(agent().secret(), StandardCharsets.UTF_8);
        assertTrue(secret.length() >= 32, secret);
        // the whole command line: ProcessHandle.Info cuts a long one short
        String cmd = Files.readString(Path.of("/proc", Long.toString(agent().process().pid()), "cmdline"))
                .replace('\0', ' ');
        assertTrue(cmd.contains("--secret stdin"), cmd);
        assertTrue(!cmd.contains(secret), cmd);
    }

    @Test
    void anOverLongLineClosesTheConnectionAndTheAgentServesOn() throws Exception {
        try (RemoteClient c = RemoteClient.connect(agent());
             Socket s = new Socket()) {
            assertTrue(c.clockOffset().length == 2, "a proven connection is served");
            s.connect(agent().address(), 5_000);
            s.setSoTimeout(15_000);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            String challenge = readLine(in);
            String nonce = (String) AgentWire.decode(challenge).get("challenge");
            out.write((AgentWire.encode(Map.of("proof", AgentMain.proof(agent().secret(), nonce))) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertEquals("{\"welcome\":true}", readLine(in));
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'x');
            long sent = 0;
            try {
                // 64 MiB without a newline: an agent reading it all would take it, one with a bound closes early
                for (int i = 0; i < 1024; i++) {
                    out.write(chunk);
                    sent += chunk.length;
                }
                out.flush();
            } catch (java.net.SocketException closed) {
                // the agent closed the connection while this was still sending: what a bound does
            }
            assertTrue(sent < 64L << 20, "the agent read " + sent + " bytes of one line");
            String rest;
            try {
                rest = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.net.SocketException reset) {
                rest = ""; // the close reset the connection before its error line was read
            }
            assertTrue(rest.isEmpty() || rest.contains("longer than 1048576 bytes"), rest);
            assertTrue(c.clockOffset().length == 2, "the agent serves on");
        }
        String log = Files.readString(dir.resolve("agents/agent-1.log"));
        assertTrue(log.contains("a line longer than 1048576 bytes"), log);
    }

    @Test
    void anOpenNamingAServerTheRunnerDidNotGiveIsRefused() throws Exception {
        try (RemoteClient c = RemoteClient.connect(agent())) {
            RemoteClient.AgentException e = assertThrows(RemoteClient.AgentException.class, () -> c.open("mutex",
                    new LockSettings("127.0.0.1:1,10.9.8.7:2181", "/k", false, List.of(), 2000, LockSettings.LEASE_MS,
                            LockSettings.REQUEST_TIMEOUT_MS), 0, (st, about, why) -> { }));
            assertTrue(e.getMessage().contains("10.9.8.7:2181 is not a server endpoint this run's runner gave"),
                    e.getMessage());
        }
    }

    @Test
    void anAgentWithoutASecretDoesNotStart() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), AgentMain.class.getName(), "--listen", "127.0.0.1:0")
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("--secret stdin is required"), out);
    }

    private static String readLine(InputStream in) throws Exception {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            b.write(c);
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
