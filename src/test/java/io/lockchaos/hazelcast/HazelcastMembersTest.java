package io.lockchaos.hazelcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.cluster.KilledRunner;
import io.lockchaos.cluster.ServerNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hazelcast members as this machine's child JVMs: they die with a runner killed by SIGKILL (no shutdown hook runs),
 * and a killed CP member, started again, joins as a new member, promotes itself into the CP Subsystem and takes the
 * place of its old self, which is removed, so that a second kill still leaves a majority. (A whole run with member
 * kills is {@code HazelcastRunTest}'s.)
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
@Tag("slow") // starts Hazelcast members, three JVMs each time
class HazelcastMembersTest {
    @TempDir
    Path dir;

    @Test
    void membersDieWithARunnerKilledBySigkill() throws Exception {
        Files.createDirectories(dir.resolve("holder"));
        KilledRunner.childrenDieWith(HazelcastHolder.class, 3, "Hazelcast member", dir.resolve("holder").toString());
    }

    @Test
    void aKilledCpMemberStartsAgainPromotesItselfAndItsOldSelfIsRemoved() throws Exception {
        try (HazelcastMembers members = HazelcastMembers.create(dir, 3, HazelcastHolder.jars(), 3, 2, null)) {
            members.start();
            members.awaitHealthy(Duration.ofSeconds(60));
            ServerNode first = members.nodes().get(0);
            assertEquals("127.0.0.1", first.host());
            members.kill(first);
            members.restart(first);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.readString(first.logFile()).contains("lockchaos: promoted to a CP member")) {
                assertTrue(System.nanoTime() < deadline, "promoted within 60 s: " + first.logFile());
                Thread.sleep(200);
            }
            Path other = members.nodes().get(1).logFile();
            while (!Files.readString(other).contains("is removed from CP Subsystem")) {
                assertTrue(System.nanoTime() < deadline, "its old self removed within 60 s: " + other);
                Thread.sleep(200);
            }
        }
    }
}
