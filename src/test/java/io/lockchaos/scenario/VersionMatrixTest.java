package io.lockchaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a matrix over ZooKeeper releases reads back from a stored run: the release its servers logged. */
class VersionMatrixTest {
    @TempDir
    Path run;

    private void log(int node, String text) throws Exception {
        Path d = run.resolve("servers/node-" + node);
        Files.createDirectories(d);
        Files.writeString(d.resolve("server.log"), text);
    }

    @Test
    void theReleaseIsTheOneEveryServerLogged() throws Exception {
        assertNull(VersionMatrix.zooKeeperOf(run), "no servers folder");
        for (int n = 1; n <= 3; n++) {
            log(n, "INFO Server environment:zookeeper.version=3.6.4--1, built on 12/18/2022 18:10 GMT\n");
        }
        assertEquals("3.6.4", VersionMatrix.zooKeeperOf(run));
        log(2, "INFO Server environment:zookeeper.version=3.9.5-293c895a8d966a3ecb92872be4a1daf87d725da2, built on\n");
        assertNull(VersionMatrix.zooKeeperOf(run), "servers that disagree name no release");
    }
}
