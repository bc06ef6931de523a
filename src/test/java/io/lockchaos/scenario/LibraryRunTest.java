package io.lockchaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.docs.MarkedCommand;
import io.lockchaos.pg.PgServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock library's recipe, run end to end in every {@code mvn -B verify}: the libraries page's first command as
 * written (ShedLock's JDBC provider, resolved at run time into a client agent, on a PostgreSQL server), whose late
 * unlock ends another client's lock. The page's other runs are the catalogue's ({@code LibrariesDocCommandsTest}).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("slow") // starts a PostgreSQL server, a client agent and the jar
class LibraryRunTest {
    @TempDir
    Path work;

    @Test
    void shedLocksLateUnlockOnTheApplicationsClockEndsTheNextHoldersLock() throws Exception {
        Assumptions.assumeTrue(PgServers.findBinaries() != null, PgServers.MISSING);
        String command = MarkedCommand.on("docs/libraries.md", "LibraryRunTest");
        assertEquals("bin/lockchaos run --workload workloads/shedlock-jdbc-late-unlock.json --check-expect", command);
        MarkedCommand.Result r = MarkedCommand.run(command, work, List.of("bin", "target", "workloads"), 170);
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("expected anomalies double-holder: as expected"), r.output());
        String results = Files.readString(work.resolve("histories/shedlock-jdbc-late-unlock/latest/results.json"));
        assertTrue(results.contains("a release whose condition names no owner ends whichever hold the lock has then"),
                "the story names the late release: " + results);
    }
}
