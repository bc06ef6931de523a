package io.lockchaos.own;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.KilledRunner;
import io.lockchaos.cluster.PortReservations;
import io.lockchaos.cluster.ServerNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock's own servers as child processes of the run: started from the commands their factory gave, killed and
 * started again on the same port and folder, paused and resumed, gone when closed and when the runner is SIGKILLed.
 * (A whole run on a lock's own servers is the example project's, run by MavenDocCommandsTest.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers as child JVMs
class OwnServersTest {
    @TempDir
    Path dir;

    /** {@code size} {@link LineServer}s on loopback, in {@code base}. */
    static OwnServers servers(Path base, int size) throws IOException {
        List<ServerNode> nodes = new ArrayList<>();
        List<List<String>> commands = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            Path folder = base.resolve("server-" + id);
            Files.createDirectories(folder);
            ServerNode n = new ServerNode(id, "127.0.0.1", PortReservations.freePort(), 0, 0, folder,
                    folder.resolve("server.log"));
            nodes.add(n);
            commands.add(LineServer.command(n));
        }
        return new OwnServers("line-server", nodes, commands, null);
    }

    @Test
    void serversAreKilledRestartedPausedAndEndedByPid() throws Exception {
        try (OwnServers s = servers(dir, 2)) {
            s.start();
            s.awaitHealthy(Duration.ofSeconds(30));
            ServerNode first = s.nodes().get(0);
            ServerNode second = s.nodes().get(1);
            assertTrue(first.answers(500) && second.answers(500));
            assertTrue(Files.readString(first.logFile()).startsWith("lockchaos: starting setpriv --pdeathsig KILL"
                    + " -- "), "the log says what ran");
            long pid = s.pid(first);
            s.kill(first);
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "killed by pid");
            assertFalse(first.answers(200));
            assertTrue(second.answers(200), "the other server is untouched");
            s.restart(first);
            assertTrue(first.answers(500), "the same port again");
            assertTrue(echoes(second, 2000));
            s.pause(second);
            assertFalse(echoes(second, 500), "a stopped server's kernel accepts, but it never answers");
            s.resume(second);
            assertTrue(echoes(second, 2000));
            long restarted = s.pid(first);
            long other = s.pid(second);
            s.close();
            for (long p : List.of(restarted, other)) {
                assertFalse(ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false), "ended: " + p);
            }
        }
    }

    /** Whether the server answers a byte within {@code millis}. */
    private static boolean echoes(ServerNode n, int millis) throws IOException {
        try (Socket c = new Socket()) {
            c.connect(new InetSocketAddress(n.host(), n.clientPort()), millis);
            c.setSoTimeout(millis);
            c.getOutputStream().write('x');
            return c.getInputStream().read() == 'o';
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Test
    void aServerThatExitsSaysWhereItsLogIs() throws Exception {
        Path folder = dir.resolve("server-1");
        Files.createDirectories(folder);
        ServerNode n = new ServerNode(1, "127.0.0.1", PortReservations.freePort(), 0, 0, folder,
                folder.resolve("server.log"));
        try (OwnServers s = new OwnServers("false-server", List.of(n), List.of(List.of("false")), null)) {
            s.start();
            EnvironmentProblem e = assertThrows(EnvironmentProblem.class, () -> s.awaitHealthy(Duration.ofSeconds(20)));
            assertEquals("false-server 1 exited with 1 (see " + n.logFile() + ")", e.getMessage());
        }
    }

    @Test
    void serversDieWithARunnerKilledBySigkill() throws Exception {
        KilledRunner.childrenDieWith(OwnHolder.class, 2, "server of a lock's own", dir.toString());
    }
}
