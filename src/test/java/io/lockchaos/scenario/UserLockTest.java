package io.lockchaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.checker.Verdict;
import io.lockchaos.core.SpecException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock from the user's own classpath, through the Scenario API: it runs in client agents on the Curator its classpath
 * brings (5.5.0 here, while lockchaos links 5.9.0), and each way its class can be wrong is one line before anything
 * starts. Scenario 1 on a user's locks is the example project's test (examples/curator-wrapper), which DocCommandsIT
 * runs.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class UserLockTest {
    private static final Path TEST_CLASSES = Path.of("target/test-classes");

    @TempDir
    Path store;

    /** The test tree's classes and Curator 5.5.0's jars: a user's classpath whose Curator is not ours. */
    private static List<Path> classpathOnCurator550() throws Exception {
        List<Path> cp = new ArrayList<>();
        cp.add(TEST_CLASSES);
        cp.addAll(io.lockchaos.agent.CuratorResolver.defaults().classpath("5.5.0"));
        return cp;
    }

    @Test
    void aUserLockRunsInAgentsOnTheCuratorItBrings() throws Exception {
        ScenarioResult r = Scenario.builder().name("plain-mutex").clients(4).time(Duration.ofSeconds(3))
                .hold(Duration.ofMillis(50)).lock("io.lockchaos.api.testlocks.PlainMutex", classpathOnCurator550())
                .store(store).run();
        assertEquals(Verdict.VALID, r.verdict(), "see " + r.dir());
        JsonNode results = new ObjectMapper().readTree(r.dir().resolve("results.json").toFile());
        assertEquals("5.5.0", results.path("curator").asText(), "the agents report the lock's Curator: " + results);
        assertTrue(results.path("ops").asLong() > 20, "the lock was exercised: " + results.path("ops"));
        JsonNode test = new ObjectMapper().readTree(r.dir().resolve("test.json").toFile());
        assertEquals("exclusive reentrant owner-release fifo", test.path("lock_promises").asText(),
                "the factory's answer is recorded, so the stored run is checked again without it");
        io.lockchaos.checker.Recipe promises = r.spec().recipe().promises();
        assertTrue(promises.reentrant() && promises.ownerRelease() && promises.fifo() && promises.capacity() == 1,
                "its promises choose the checkers: " + promises);
        // the stored run replays its own lock, without asking the factory again
        assertEquals(r.spec().recipe(), Scenario.replay(r.dir()).spec().recipe());
    }

    private String refusal(String className, List<Path> classpath) {
        return assertThrows(SpecException.class, () -> Scenario.builder().lock(className, classpath).spec())
                .getMessage();
    }

    @Test
    void aClassThatCannotServeIsOneLineBeforeAnythingStarts() throws Exception {
        List<Path> cp = List.of(TEST_CLASSES);
        assertEquals("scenario: lock_class: io.lockchaos.api.testlocks.Nope is not on the lock's classpath (lock_jar)",
                refusal("io.lockchaos.api.testlocks.Nope", cp));
        assertEquals("scenario: lock_class: io.lockchaos.api.testlocks.ThrowingConstructor's constructor threw"
                + " java.lang.IllegalStateException: no lock.properties",
                refusal("io.lockchaos.api.testlocks.ThrowingConstructor", cp));
        assertEquals("scenario: lock_class: io.lockchaos.scenario.UserLockTest does not implement"
                + " io.lockchaos.api.LockFactory", refusal("io.lockchaos.scenario.UserLockTest", cp));
        assertEquals("scenario: lock_jar: /no/such.jar: no such file or folder",
                refusal("x.Y", List.of(Path.of("/no/such.jar"))));
        assertEquals("scenario: recipe: 'mutex' and lock_class both name the lock under test: give one",
                assertThrows(SpecException.class, () -> Scenario.builder()
                        .lock("io.lockchaos.api.testlocks.PlainMutex", cp).recipe("mutex").spec()).getMessage());
    }

    @Test
    void aFactoryWhoseOpenThrowsStopsTheRunInOneLine() throws Exception {
        Scenario s = Scenario.builder().name("throwing-open").clients(2).time(Duration.ofSeconds(30))
                .lock("io.lockchaos.api.testlocks.ThrowingOpen", List.of(TEST_CLASSES)).store(store);
        long t0 = System.nanoTime();
        String message = assertThrows(IllegalArgumentException.class, s::run).getMessage();
        assertTrue(message.startsWith("the run stopped: worker ") && message.contains("no client after 3 tries")
                && message.contains("cannot reach the lock service at 127.0.0.1:"), message);
        assertTrue(message.lines().count() == 1, message);
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "it stopped before the main phase ended");
        Path run = java.nio.file.Files.list(store.resolve("throwing-open")).filter(java.nio.file.Files::isDirectory)
                .filter(d -> !d.getFileName().toString().equals("latest")).findFirst().orElseThrow();
        assertTrue(java.nio.file.Files.exists(io.lockchaos.store.RunDir.of(run).history()), "the history is kept");
        assertTrue(java.nio.file.Files.exists(io.lockchaos.store.RunDir.of(run).crashed()), "the run says it stopped");
    }
}
