package io.lockchaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.docs.MarkedCommand;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hazelcast's FencedLock end to end in every {@code mvn -B verify}: the first command of the libraries page's
 * Hazelcast section as written (three CP members as child JVMs on the resolved 5.4.0, the lock in a client agent, a
 * member killed twice), valid, and over in its time (a CP Subsystem without a majority once left it waiting on its
 * clients for minutes). A killed member's promotion back is {@code HazelcastMembersTest}'s; the section's other runs
 * are the catalogue's ({@code LibrariesDocCommandsTest}).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("slow") // starts three Hazelcast members, a client agent and the jar
class HazelcastRunTest {
    @TempDir
    Path work;

    @Test
    void theCpSubsystemKeepsTheLockThroughMemberKills() throws Exception {
        String command = MarkedCommand.on("docs/libraries.md", "HazelcastRunTest");
        assertEquals("bin/lockchaos run --workload workloads/hazelcast-member-kill.json --check-expect", command);
        MarkedCommand.Result r = MarkedCommand.run(command, work, List.of("bin", "target", "workloads"), 170);
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("expected valid: as expected"), r.output());
        assertTrue(r.output().contains("3 local Hazelcast member(s)"), r.output());
    }
}
