package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceGrowthTest {
    @TempDir
    Path dir;

    private Path samples(String... lines) throws IOException {
        return Files.write(dir.resolve("resources.jsonl"), java.util.List.of(lines));
    }

    private static String sample(double t, double rss) {
        return "{\"t_s\":" + t + ",\"heap_used_mb\":" + (rss + 120) + ",\"heap_committed_mb\":600.0,\"heap_live_mb\":"
                + rss + ",\"gc_ms\":80,\"rss_mb\":700.0,\"fds\":40,\"threads\":30,\"ops\":0,\"history_mb\":0.00}";
    }

    @Test
    void growthCountsFromTheFirstSampleAfterTheFirstMinuteToTheHighestLaterOne() throws IOException {
        ResourceGrowth g = ResourceGrowth.of(samples(sample(0, 118.2), sample(60, 514.7), sample(120, 517.8),
                sample(180, 541.4), sample(200.5, 537.2))).orElseThrow();
        assertEquals(514.7, g.warmUpMb());
        assertEquals(541.4, g.highestMb());
        assertEquals(3, g.samplesAfter());
        assertEquals(26.7, g.growthMb(), 1e-9);
        assertTrue(g.within(27));
        assertFalse(g.within(26));
        assertEquals("memory: live heap 514.7 MB at 60 s, at most 541.4 MB in the 3 samples after (+26.7 MB,"
                + " bound 26 MB): NOT within", g.line(26));
    }

    @Test
    void theClimbDuringWarmUpIsNotGrowthAndAShrinkIsNone() throws IOException {
        ResourceGrowth g = ResourceGrowth.of(samples(sample(0, 100), sample(60.1, 500), sample(120, 480)))
                .orElseThrow();
        assertEquals(0, g.growthMb());
        assertTrue(g.within(0));
        assertEquals("memory: live heap 500.0 MB at 60 s, at most 480.0 MB in the sample after (+0.0 MB, bound 0 MB):"
                + " within", g.line(0));
    }

    @Test
    void aRunWithoutASampleAfterWarmUpIsNotJudged() throws IOException {
        assertTrue(ResourceGrowth.of(samples(sample(0, 100), sample(45.2, 300))).isEmpty());
        assertTrue(ResourceGrowth.of(samples(sample(0, 100), sample(60, 300))).isEmpty());
    }

    @Test
    void aLineThatIsNotASampleIsNamedByFileAndLine() throws IOException {
        Path f = samples(sample(0, 100), "{\"t_s\":60.0}", sample(120, 1));
        IOException e = assertThrows(IOException.class, () -> ResourceGrowth.of(f));
        assertEquals(f + ":2: heap_live_mb: expected a number", e.getMessage());
        Path g = samples("{", sample(120, 1));
        assertEquals(g + ":1: not a resource sample", assertThrows(IOException.class, () -> ResourceGrowth.of(g))
                .getMessage());
    }
}
