package io.lockchaos.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.pg.PgServers;
import io.lockchaos.redis.RedisServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the quick comparison exactly as docs/comparing.md writes it (the command is read from the page: the block
 * whose doc-test comment names this class), from a folder laid out as a clone's root, and checks that every cell of
 * the table was measured. It runs here rather than among the documentation's commands so that its three minutes
 * overlap the other slow tests.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class CompareCommandTest {
    @TempDir
    Path work;

    /** The command of the block the page marks as run by this test. */
    static String documentedCommand() throws Exception {
        return io.lockchaos.docs.MarkedCommand.on("docs/comparing.md", "CompareCommandTest");
    }

    @Test
    void theQuickComparisonFillsEveryCellOfTheTable() throws Exception {
        Assumptions.assumeTrue(RedisServers.findExecutable() != null, RedisServers.MISSING);
        Assumptions.assumeTrue(PgServers.findBinaries() != null, PgServers.MISSING);
        Assumptions.assumeTrue(io.lockchaos.etcd.EtcdServers.findExecutable() != null,
                io.lockchaos.etcd.EtcdServers.MISSING);
        String command = documentedCommand();
        assertEquals("bin/lockchaos compare --quick", command);
        io.lockchaos.docs.MarkedCommand.Result r = io.lockchaos.docs.MarkedCommand.run(command, work,
                List.of("bin", "target"), 540);
        String out = r.output();
        assertEquals(0, r.exit(), out);
        Path dir;
        try (Stream<Path> s = Files.list(work.resolve("histories/compare"))) {
            dir = s.findFirst().orElseThrow();
        }
        String md = Files.readString(dir.resolve("table.md"));
        assertTrue(out.contains(md.lines().findFirst().orElseThrow()), "the console shows the table");
        for (Claim c : Claim.values()) {
            String row = md.lines().filter(l -> l.startsWith("| " + c.title() + " (")).findFirst().orElseThrow(
                    () -> new AssertionError("no row " + c.title() + ": " + md));
            assertEquals(Plan.full().columns().size(), row.split("measured: ", -1).length - 1, row);
            assertFalse(row.contains("not measured"), row);
        }
        String reliability = md.lines().filter(l -> l.startsWith("| Reliability")).findFirst().orElseThrow();
        assertEquals(Plan.full().columns().size(), reliability.split(" of 3 runs \\(holder-pause \\d/1, holder-cut-off \\d/1, server-kill"
                + " \\d/1\\)", -1).length - 1, "one run per fault class in each column: " + reliability);
        assertTrue(Files.readString(dir.resolve("table.html")).contains("<th>Failure recovery<br>故障恢复</th>"));
        for (String run : List.of("compare-reentrant-mutex-holder-pause", "compare-redis-single-server-kill",
                "compare-pg-advisory-load-10-keys", "compare-naive-herd-load-1-keys")) {
            assertTrue(Files.exists(work.resolve("histories").resolve(run).resolve("latest/history.jsonl")), run);
        }
    }
}
