package io.lockchaos.ssh;

import io.lockchaos.agent.AgentLauncher;
import io.lockchaos.agent.AgentWire;
import io.lockchaos.agent.RemoteClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Client agents on hosts reached over SSH ({@link SshAgents}, on an {@link SshLab}): they listen on their hosts'
 * addresses, serve a connection that proves the run's secret, refuse and log one that does not, keep the secret off
 * every command line, and leave nothing behind. The lab's login shells print to both streams before anything else, as
 * real hosts' start-up files may (in CI, pyenv's complaints once broke the reading of a started process's pid).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts sshd, agents over SSH and namespaces
class SshAgentsTest {
    /** The lab logs in as root: its runs' folders are root's ({@link HostRun#base}). */
    static final String LAB_UID = "0";
    private static SshLab lab;

    @TempDir
    Path dir;

    @BeforeAll
    static void hosts(@TempDir Path labDir) throws Exception {
        if (SshLab.unavailable() == null) {
            lab = SshLab.create(1, labDir, true); // a login shell that talks first, as real hosts' may
        }
    }

    @BeforeEach
    void needsLab() {
        String why = SshLab.unavailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
    }

    @AfterAll
    static void closeLab() throws Exception {
        if (lab != null) {
            lab.close();
        }
    }

    /** Sends {@code answer} to the agent's challenge; returns the agent's reply, or null when it closed. */
    private static String answerChallenge(AgentLauncher.Agent a, String answer) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(a.address(), 5_000);
            s.setSoTimeout(10_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
            Map<String, Object> challenge = AgentWire.decode(in.readLine());
            assertTrue(challenge.get("challenge") instanceof String, "a challenge comes first: " + challenge);
            out.write(answer + "\n");
            out.flush();
            return in.readLine();
        }
    }

    @Test
    void whatTheLoginShellPrintsIsNoCommandsOutput() throws Exception {
        var client = SshHost.client(lab.options());
        try (SshHost h = SshHost.connect(client, lab.options(), lab.hosts().get(0))) {
            assertTrue(h.run(List.of("printenv", "BASH_ENV")).trim().endsWith("noisy-login.sh"), "a talkative login");
            assertEquals("ok\n", h.run(List.of("echo", "ok")), "the shell's first words are not the first answer");
            assertEquals("", h.run(List.of("true")));
            SshHost.Background b = h.start("/", List.of("sleep", "30"), null);
            try {
                // the shell prints its pid, then execs: until the exec lands, the pid's command line is the shell's
                Path cmdline = Path.of("/proc/" + b.pid() + "/cmdline");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (b.pid() > 1 && Files.exists(cmdline) && !Files.readString(cmdline).startsWith("sleep")
                        && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(b.pid() > 1 && Files.readString(cmdline).startsWith("sleep"),
                        "the pid is the process's, not a number the login shell printed");
            } finally {
                h.run(List.of("kill", Long.toString(b.pid())));
                b.close();
            }
        } finally {
            client.stop();
        }
    }

    @Test
    void aConnectionWithoutTheSecretIsRefusedAndLogged() throws Exception {
        String host = lab.hosts().get(0);
        SshAgents agents = SshAgents.start(List.of(host), lab.options(), dir);
        String secret;
        try (agents) {
            AgentLauncher.Agent a = agents.agents().get(0);
            assertEquals(host, a.address().getHostString(), "it listens on its host's address");
            assertNull(a.process(), "not a process of this machine");
            secret = new String(a.secret(), StandardCharsets.UTF_8);
            assertFalse(SshEnsembleTest.anyProcessMentions(secret), "the secret is on no command line");

            // a wrong proof, a proof made with another secret, no proof at all: each refused, the connection closed
            assertNull(answerChallenge(a, "{\"proof\":\"00\"}"));
            assertNull(answerChallenge(a, AgentWire.encode(Map.of("proof", io.lockchaos.agent.AgentMain.proof(
                    "another-secret-of-32-characters!".getBytes(StandardCharsets.UTF_8), "x")))));
            assertNull(answerChallenge(a, "{\"op\":\"open\",\"id\":1}"));

            // the runner's connection proves it and is served: here, the clock offset (same machine: about 0)
            try (RemoteClient c = RemoteClient.connect(a.address(), a.secret())) {
                long[] offset = c.clockOffset();
                assertTrue(Math.abs(offset[0]) <= offset[1] / 2 + 50, "offset " + offset[0] + " in " + offset[1]);
            }
            java.io.IOException refused = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> RemoteClient.connect(a.address(), "not-the-run-secret-not-the-run-s".getBytes(
                            StandardCharsets.UTF_8)).close());
            assertTrue(refused.getMessage().contains("refused the proof"), refused.getMessage());
            Map<String, Object> measured = agents.clockOffsets().get(0);
            assertEquals(host, measured.get("host"));
            assertTrue(Files.readString(dir.resolve("clock-offsets.json")).contains("\"offset_ms\""));
        }
        String log = Files.readString(dir.resolve("agent-1.log"));
        long refusals = log.lines().filter(l -> l.startsWith("lockchaos agent: refused a connection from ")).count();
        assertEquals(4, refusals, log);
        assertFalse(SshEnsembleTest.anyProcessMentions("AgentMain --listen " + host), "the agent is gone");
        assertFalse(Files.exists(Path.of(HostRun.base(LAB_UID, host))), "nothing of the run is left on the host");
    }
}
