package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lockchaos.cluster.ClusterKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each group of keys refuses its own out-of-range values, and a workload's refusal names the file and the key. */
class RecordRangesTest {
    private static String refused(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void eachRecordGuardsItsKeys() {
        assertEquals("nodes: expected 1, 3 or 5 (PostgreSQL: 1 to 5), got 6",
                refused(() -> new ClusterSpec(ClusterKind.LOCAL, 6, 200)));
        assertEquals("tick_ms: must be at least 10, got 9", refused(() -> new ClusterSpec(ClusterKind.LOCAL, 3, 9)));
        assertEquals("reentry_depth: expected 1 to 100, got 101",
                refused(() -> new ClientSpec(10, 4000, io.lockchaos.client.ClientMode.IGNORE, 101)));
        assertEquals("clients: expected 1 to 2000, got 0",
                refused(() -> new ClientSpec(0, 4000, io.lockchaos.client.ClientMode.IGNORE, 1)));
        assertEquals("rate: expected 0 (unlimited) to 500 cycles/s per client, got 501",
                refused(() -> new WorkloadSpec(1, 10, 0, 10, 0, 1000, 0, 50, 501)));
        assertEquals("read_pct: expected 0 to 100, got 101",
                refused(() -> new WorkloadSpec(1, 10, 0, 10, 0, 1000, 0, 101, 0)));
        assertEquals("quiesce_ms: expected -1 (auto) to 600000, got -2",
                refused(() -> new FaultSpec("", -2, null, null)));
        assertEquals("acquire_slack_ms: expected -1 (no check) or 0 to 600000, got -5",
                refused(() -> new CheckSpec(null, null, null, -5, -1, false)));
        assertEquals("expect_memory_growth_mb: expected -1 (no check) or 0 to 1048576 (1 TB), got -2",
                refused(() -> new CheckSpec(null, null, null, -1, -2, false)));
    }

    @Test
    void aWorkloadsRefusalNamesItsSourceAndKey() {
        SpecException e = assertThrows(SpecException.class,
                () -> TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("warmup_s", "3601")));
        assertEquals("w.json: warmup_s: expected 0 to 3600, got 3601", e.getMessage());
    }
}
