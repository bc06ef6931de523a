package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.history.History;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.report.RunnerStalls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner frozen for 5 s (SIGSTOP, then SIGCONT) in the middle of a short run, as a user's run would be by a paused
 * VM: its history, results.json and headline say the runner itself was frozen, for about that long.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class RunnerStallTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aRunnerStoppedForFiveSecondsSaysSoInItsHistoryResultsAndHeadline(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("store");
        ProcessBuilder pb = new ProcessBuilder("bin/lockchaos", "run", "--nodes", "1", "--time", "12", "--store",
                store.toString()).redirectErrorStream(true);
        // the runner, and through its watchdogs its servers, end with this JVM whatever happens to the test
        pb.environment().put("LOCKCHAOS_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = drain(p.getInputStream(), out);
        String pid = Long.toString(p.pid()); // bin/lockchaos execs java: this is the runner's JVM
        try {
            Path history = awaitMainPhase(store, p);
            Thread.sleep(1500); // the workers are at it
            signal("-STOP", pid);
            Thread.sleep(5000);
            signal("-CONT", pid);
            assertTrue(p.waitFor(150, TimeUnit.SECONDS), "the run ends");
            reader.join();
            String console = out.toString(StandardCharsets.UTF_8);
            // the verdict stands on the history, whatever it is; the run is judged, not crashed
            assertTrue(p.exitValue() == 0 || p.exitValue() == 1, console);
            History h = JsonlHistoryReader.read(history);
            List<RunnerStalls.Stall> stalls = RunnerStalls.of(h);
            assertEquals(1, stalls.size(), console);
            long frozen = stalls.get(0).durationNs();
            assertTrue(frozen >= 45 * S / 10 && frozen < 10 * S, "frozen " + frozen + " ns");
            JsonNode results = new ObjectMapper().readTree(history.resolveSibling("results.json").toFile());
            JsonNode listed = results.get("runner_stalls");
            assertEquals(1, listed.size(), results.toString());
            assertEquals(frozen, listed.get(0).get("duration_ns").asLong());
            assertEquals(stalls.get(0).startNs(), listed.get(0).get("start_ns").asLong());
            assertTrue(console.contains("the runner itself was frozen for "), console);
            assertFalse(console.contains("\tat "), console);
        } finally {
            if (p.isAlive()) {
                signal("-CONT", pid);
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** The run's history once its main phase has begun (its phase marker is written). */
    private static Path awaitMainPhase(Path store, Process p) throws Exception {
        long deadline = System.nanoTime() + 90 * S;
        while (System.nanoTime() < deadline) {
            assertTrue(p.isAlive(), "the run ended before its main phase");
            Optional<Path> h = history(store);
            if (h.isPresent() && Files.readString(h.get()).contains("\"phase\":\"main\"")) {
                return h.get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no main phase within 90 s");
    }

    private static Optional<Path> history(Path store) throws IOException {
        if (!Files.isDirectory(store)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.walk(store)) {
            return s.filter(f -> f.getFileName().toString().equals("history.jsonl") && !Files.isSymbolicLink(
                    f.getParent())).findFirst();
        }
    }

    private static void signal(String sig, String pid) throws Exception {
        Process k = new ProcessBuilder("kill", sig, pid).redirectErrorStream(true).start();
        assertTrue(k.waitFor(10, TimeUnit.SECONDS), "kill " + sig);
    }

    private static Thread drain(InputStream in, ByteArrayOutputStream to) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(to);
            } catch (IOException e) {
                // the process ended
            }
        }, "runner-output");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
