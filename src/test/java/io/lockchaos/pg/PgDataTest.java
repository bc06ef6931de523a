package io.lockchaos.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.nemesis.ProxyNetwork;
import io.lockchaos.nemesis.ToxiproxyBackend;
import io.lockchaos.nemesis.ToxiproxyBackends;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protected data in a PostgreSQL table, on one real server: what each way of writing it lets through when two
 * holders overlap, and what a client sees of a commit whose answer is lost or a statement that never arrives.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class PgDataTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    @TempDir
    static Path dir;
    private static PgServers servers;
    private static String address;

    @BeforeAll
    static void start() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(PgServers.findBinaries() != null, PgServers.MISSING);
        servers = PgServers.create(dir, 1, false);
        servers.start();
        servers.awaitHealthy(Duration.ofSeconds(60));
        address = servers.nodes().get(0).clientAddress();
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    @Test
    void twoPlainHoldersAtOnceLoseTheFirstOnesAdd() throws Exception {
        try (PgData a = new PgData(address, TIMEOUT); PgData b = new PgData(address, TIMEOUT);
             PgData reader = new PgData(address, TIMEOUT)) {
            assertEquals(List.of(), a.read("plain", -1));
            assertEquals(List.of(), b.read("plain", -1), "b reads before a commits: both start from nothing");
            a.write("plain", List.of(1L), -1, () -> { });
            b.write("plain", List.of(2L), -1, () -> { });
            assertEquals(List.of(2L), reader.read("plain", -1), "b's write replaced a's: a's add is lost");
        }
    }

    @Test
    void aWriteFencedByTokenRefusesALowerTokenAfterAHigherOneWroteButNotBefore() throws Exception {
        try (PgData low = new PgData(address, TIMEOUT); PgData high = new PgData(address, TIMEOUT);
             PgData reader = new PgData(address, TIMEOUT)) {
            low.read("token", -1);
            high.read("token", -1);
            high.write("token", List.of(2L), 10, () -> { });
            assertThrows(TransactionalSet.Rejected.class, () -> low.write("token", List.of(1L), 5, () -> { }),
                    "the row's fence (10) is above the stale holder's token (5)");
            assertEquals(List.of(2L), reader.read("token", -1));
            // the other order: the stale holder writes first, the fence lets it (5 <= 10 is not asked yet)
            low.read("token-first", -1);
            high.read("token-first", -1);
            low.write("token-first", List.of(1L), 5, () -> { });
            high.write("token-first", List.of(2L), 10, () -> { });
            assertEquals(List.of(2L), reader.read("token-first", -1), "a fenced write alone still loses the add"
                    + " that landed between the newer holder's read and its write");
        }
    }

    @Test
    void aClaimingReadShutsOutLowerTokensBeforeTheyRead() throws Exception {
        try (PgData low = new PgData(address, TIMEOUT); PgData high = new PgData(address, TIMEOUT);
             PgData reader = new PgData(address, TIMEOUT)) {
            assertEquals(List.of(), high.read("claim", 10));
            high.write("claim", List.of(2L), 10, () -> { });
            assertThrows(TransactionalSet.Rejected.class, () -> low.read("claim", 5),
                    "a lower token's claim is refused: it cannot read, so it writes nothing");
            assertEquals(List.of(2L), high.read("claim", 11), "a higher token claims it next");
            high.write("claim", List.of(2L, 3L), 11, () -> { });
            assertEquals(List.of(2L, 3L), reader.read("claim", -1));
        }
    }

    @Test
    void aLostCommitAnswerLeavesTheOutcomeUnknownAndANeverSentWriteFails() throws Exception {
        try (ToxiproxyBackend proxies = ToxiproxyBackends.embedded()) {
            ProxyNetwork net = new ProxyNetwork(proxies.client(), "127.0.0.1");
            ServerNode n = servers.nodes().get(0);
            String viaProxy = net.dataAddress(0, List.of(n));
            var proxy = proxies.client().getProxy("data-0-n1");
            try (PgData holder = new PgData(viaProxy, TIMEOUT); PgData reader = new PgData(address, TIMEOUT)) {
                holder.read("lost", -1);
                Exception unknown = assertThrows(Exception.class, () -> holder.write("lost", List.of(7L), -1, () -> {
                    try {
                        proxy.toxics().timeout("answer", ToxicDirection.DOWNSTREAM, 0);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }));
                assertFalse(unknown instanceof TransactionalSet.NotWritten || unknown instanceof TransactionalSet
                        .Rejected, "the COMMIT was sent: its outcome is unknown, not a failure: " + unknown);
                assertEquals(List.of(7L), reader.read("lost", -1), "the commit took; only its answer was lost");
                proxy.toxics().get("answer").remove();

                holder.read("never", -1); // a new connection: the last one broke
                proxy.toxics().timeout("cut", ToxicDirection.UPSTREAM, 0);
                assertThrows(TransactionalSet.NotWritten.class, () -> holder.write("never", List.of(8L), -1,
                        () -> { }), "the write never reached the server: it certainly changed nothing");
                proxy.toxics().get("cut").remove();
                assertEquals(List.of(), reader.read("never", -1));
                assertTrue(holder.read("never", -1).isEmpty(), "the connection is opened again for the next hold");
            }
        }
    }
}
