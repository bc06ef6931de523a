package io.lockchaos.zookeeper;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class ExternalEnsembleTest {
    @TempDir
    Path dir;

    @Test
    void parsesConnectStringsAndRejectsBadOnes() {
        ExternalEnsemble e = ExternalEnsemble.of("127.0.0.1:2181,localhost:2182/chroot");
        assertEquals(2, e.nodes().size());
        assertEquals(2182, e.nodes().get(1).clientPort());
        assertEquals("127.0.0.1:2181,localhost:2182/chroot", e.connectString());
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> ExternalEnsemble.of("zk1"));
        assertEquals("connect string: 'zk1' is not host:port", x.getMessage());
    }

    @Test
    void waitsForAServerThatSomeoneElseRuns() throws Exception {
        try (LocalEnsemble local = LocalEnsemble.builder(dir).size(1).build()) {
            local.start();
            local.awaitHealthy(Duration.ofSeconds(60));
            try (ExternalEnsemble ext = ExternalEnsemble.of(local.connectString())) {
                ext.awaitHealthy(Duration.ofSeconds(5));
            }
            assertEquals("standalone", FourLetterWords.mode(local.nodes().get(0), 1000).orElseThrow());
        }
    }
}
