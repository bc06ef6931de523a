package io.lockchaos.hunt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.core.SpecException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HuntTest {
    @Test
    void aHuntWhereNothingRunsStopsAndSaysSoInsteadOfSpinningOutItsBudget(@TempDir Path dir) throws Exception {
        Hunt.Draws refused = i -> {
            throw new SpecException("hunt: nodes: this service needs 7 servers");
        };
        Hunt hunt = new Hunt(refused, KnownBugs.load(Path.of("workloads/bugs")), List.of(), dir,
                new Hunt.Effort(1, 1), null);
        long start = System.nanoTime();
        assertEquals(0, hunt.run(Duration.ofHours(2)));
        assertTrue(System.nanoTime() - start < Duration.ofMinutes(1).toNanos(), "it stopped");
        List<String> summary = hunt.summary();
        assertEquals(Hunt.MAX_REFUSED_DRAWS + 1, summary.stream().filter(l -> l.startsWith("  could not:")).count(),
                summary.toString());
        assertTrue(summary.get(summary.size() - 1).contains("stopped: 20 draws in a row gave no test that runs"
                + " here"), summary.toString());
        assertTrue(Files.readString(dir.resolve("findings.json")).contains("stopped: 20 draws"));
    }
}
