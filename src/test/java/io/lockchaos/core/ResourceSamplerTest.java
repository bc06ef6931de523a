package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** resources.jsonl: a sample at the start and one at the end, each a JSON line of the runner's own use. */
class ResourceSamplerTest {
    @TempDir
    Path dir;

    @Test
    void samplesAtTheStartAndTheEnd() throws Exception {
        Path history = Files.writeString(dir.resolve("history.jsonl"), "x".repeat(2 * 1024 * 1024));
        Path file = dir.resolve("resources.jsonl");
        try (ResourceSampler s = ResourceSampler.start(file, () -> 42, history, false)) {
            assertEquals(1, Files.readAllLines(file).size(), "one sample at once");
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size(), "and one at the end");
        JsonNode last = new ObjectMapper().readTree(lines.get(1));
        assertEquals(42, last.get("ops").asLong());
        assertEquals(2.0, last.get("history_mb").asDouble(), 0.01);
        assertTrue(last.get("heap_used_mb").asDouble() > 0, last.toString());
        assertTrue(last.get("rss_mb").asDouble() > last.get("heap_used_mb").asDouble() / 100, last.toString());
        assertTrue(last.get("fds").asLong() > 0 && last.get("threads").asLong() > 0, last.toString());
        assertTrue(last.get("t_s").asDouble() >= 0, last.toString());
        assertTrue(last.get("heap_live_mb") == null, "no collection forced without a memory bound: " + last);
    }

    @Test
    void withAMemoryBoundEachSampleHasTheHeapLeftAfterAFullCollection() throws Exception {
        Path history = Files.writeString(dir.resolve("history.jsonl"), "");
        Path file = dir.resolve("resources.jsonl");
        byte[][] garbage = new byte[64][];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = new byte[1024 * 1024]; // 64 MB that is garbage by the sample
        }
        garbage = null;
        try (ResourceSampler s = ResourceSampler.start(file, () -> 0, history, true)) {
            JsonNode first = new ObjectMapper().readTree(Files.readAllLines(file).get(0));
            assertTrue(first.get("heap_live_mb").asDouble() < first.get("heap_used_mb").asDouble() - 32,
                    "the garbage is in use before the collection, gone after it: " + first);
            assertTrue(first.get("gc_ms").asDouble() >= 0, first.toString());
        }
    }
}
