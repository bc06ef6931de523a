package io.lockchaos.scenario;

import io.lockchaos.client.ClientMode;
import io.lockchaos.client.LockRecipe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.cli.Main;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The scenario API, then replay and shrink of what it found, on real runs. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class ReproduceTest {
    @TempDir
    Path dir;

    @Test
    void aScenarioBuiltInCodeFindsADoubleHolderThatReplaysAndShrinks() throws Exception {
        ScenarioResult r = Scenario.builder().name("api")
                .recipe(LockRecipe.of(LockRecipe.Kind.REENTRANT_MUTEX)).clients(3)
                .time(Duration.ofSeconds(4)).hold(Duration.ofSeconds(4)).acquireTimeout(Duration.ofSeconds(6))
                .sessionTimeout(Duration.ofSeconds(2)).tickMillis(100).clientMode(ClientMode.IGNORE)
                .nemesis("at 500ms expire holder; at 2500ms kill follower for 1s").set("quiesce_ms", 500).seed(1)
                .store(dir).run();
        assertTrue(r.violations().contains(AnomalyKind.DOUBLE_HOLDER), r.violations().toString());
        assertTrue(r.detectedAfterSeconds() > 0);
        assertTrue(!r.stories().isEmpty());

        Path replays = dir.resolve("replays");
        assertEquals(1, Main.run("replay", r.dir().toString(), "--store", replays.toString()));
        JsonNode original = new ObjectMapper().readTree(r.dir().resolve("test.json").toFile());
        JsonNode again = new ObjectMapper().readTree(replays.resolve("api/latest/test.json").toFile());
        assertEquals(original.get("seed"), again.get("seed"));
        assertEquals(original.get("schedule"), again.get("schedule"));

        assertEquals(0, Main.run("shrink", r.dir().toString(), "--attempts", "2", "--max-runs", "3",
                "--rate-runs", "1"));
        TestSpec minimal = TestSpecs.load(r.dir().resolve("minimal.json"));
        TestSpec before = r.spec();
        assertTrue(minimal.schedule().events().size() < before.schedule().events().size()
                || minimal.clients().count() < before.clients().count()
                || minimal.workload().timeSeconds() < before.workload().timeSeconds(),
                "smaller: " + minimal);
        assertEquals(java.util.Optional.of(io.lockchaos.checker.Verdict.INVALID), minimal.checking().expected());
        JsonNode log = new ObjectMapper().readTree(r.dir().resolve("shrink.json").toFile());
        assertTrue(log.get("runs").asInt() <= 3, log.toString());
        assertEquals(1, log.get("final_runs").asInt());
        assertTrue(Files.isDirectory(r.dir().resolve("shrink")), "candidate runs are kept beside the run");
    }
}
