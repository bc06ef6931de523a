package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.history.History;
import io.lockchaos.history.JsonlHistoryReader;
import java.nio.charset.StandardCharsets;
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
 * A run whose store fills up (#42, defect 7): before, ten worker stack traces, a progress line claiming the whole run,
 * "internal error", an empty crashed.json. Now one line naming the file and the cause, exit 2, the history cut at its
 * last whole line and readable, and crashed.json saying where it stopped. The store is a 1 MB tmpfs, which needs root.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class FullDiskTest {
    @Test
    void aFullStoreStopsTheRunWithOneLineAndKeepsWhatWasWritten(@TempDir Path dir) throws Exception {
        Path store = Files.createDirectory(dir.resolve("store"));
        Assumptions.assumeTrue(run(List.of("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", store.toString())) == 0,
                "skipped: mounting a 1 MB tmpfs needs root (mount -t tmpfs)");
        try {
            ProcessBuilder pb = new ProcessBuilder("bin/lockchaos", "run", "--nodes", "1", "--time", "60s", "--store",
                    store.toString());
            pb.environment().put("LOCKCHAOS_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(p.waitFor(150, TimeUnit.SECONDS), "the run stops once the store is full, well before 60 s");
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertEquals(2, p.exitValue(), stderr);
            assertEquals(1, stderr.lines().count(), stderr);
            assertFalse(stderr.contains("\tat ") || stderr.contains("internal error"), stderr);
            assertTrue(stderr.matches("lockchaos: \\S+/history\\.jsonl: cannot write \\(No space left on device\\);"
                    + " the \\d+ ops written before are kept; the run stopped there .*\\n"), stderr);
            Path run = store.resolve("default/latest").toRealPath();
            History h = JsonlHistoryReader.read(run.resolve("history.jsonl"));
            assertTrue(h.size() > 100, "what was written is kept: " + h.size());
            assertTrue(Files.readString(run.resolve("history.jsonl")).endsWith("\n"), "no half line at the end");
            JsonNode crashed = new ObjectMapper().readTree(run.resolve("crashed.json").toFile());
            assertTrue(crashed.get("error").asText().contains("No space left on device"), crashed.toString());
            assertFalse(Files.exists(run.resolve(".space-reserve")), "the room kept for crashed.json was used");
        } finally {
            run(List.of("umount", "-l", store.toString()));
        }
    }

    private static int run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }
}
