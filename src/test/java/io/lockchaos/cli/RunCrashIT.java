package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose servers cannot start, typed as a user types it: one line naming the cause in the server's own words
 * and where to look, exit 2, no "internal error", and a crashed.json in the stored run naming the phase.
 */
class RunCrashIT {
    @Test
    void aServerThatCannotStartIsNamedAndTheRunRecordsWhy(@TempDir Path dir) throws Exception {
        Path fake = dir.resolve("redis-server");
        Files.writeString(fake, "#!/bin/sh\necho \"Fatal error, can't open config file /nope\"\nexit 1\n");
        assertTrue(fake.toFile().setExecutable(true));
        Path store = dir.resolve("store");
        ProcessBuilder pb = new ProcessBuilder("bin/lockchaos", "run", "--recipe", "redlock", "--nodes", "1", "--time",
                "1", "--store", store.toString()).redirectErrorStream(true);
        pb.environment().put("LOCKCHAOS_REDIS_SERVER", fake.toString());
        pb.environment().put("LOCKCHAOS_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("lockchaos: redis-server 1 exited with 1: \"Fatal error, can't open config file"
                + " /nope\" (see "), out);
        assertTrue(!out.contains("internal error") && !out.contains("\tat "), out);
        Path run;
        try (var runs = Files.list(store.resolve("default"))) {
            run = runs.filter(r -> !r.getFileName().toString().equals("latest")).findFirst().orElseThrow();
        }
        JsonNode crashed = new ObjectMapper().readTree(run.resolve("crashed.json").toFile());
        assertEquals("starting 1 local Redis instance(s)", crashed.get("phase").asText());
        assertTrue(crashed.get("error").asText().startsWith("redis-server 1 exited with 1"), crashed.toString());
    }
}
