package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.nemesis.FaultKind;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FaultSupportTest {
    @Test
    void theFaultsPagesTableIsTheComputedOne() throws Exception {
        String doc = Files.readString(Path.of("docs/faults.md"));
        String start = "<!-- faults-by-backend: generated from core/FaultSupport.java; FaultSupportTest checks it is"
                + " this table -->\n";
        int i = doc.indexOf(start);
        int j = doc.indexOf("<!-- /faults-by-backend -->", i);
        assertTrue(i >= 0 && j > i, "docs/faults.md has the generated table between its markers");
        assertEquals(FaultSupport.markdownTable(), doc.substring(i + start.length(), j),
                "regenerate the table from FaultSupport.markdownTable()");
    }

    @Test
    void theTableFollowsTheValidationsRefusals() {
        assertTrue(FaultSupport.supported(FaultKind.TRUNCATE_LOG, "ZooKeeper"));
        assertFalse(FaultSupport.supported(FaultKind.TRUNCATE_LOG, "Redis"), "Redis has no transaction log of ours");
        assertFalse(FaultSupport.supported(FaultKind.EXPIRE, "etcd"), "etcd holds leases, not sessions");
        assertTrue(FaultSupport.supported(FaultKind.FAILOVER, "PostgreSQL"));
        assertFalse(FaultSupport.supported(FaultKind.FAILOVER, "ZooKeeper"));
        assertTrue(FaultSupport.supported(FaultKind.PACKET_LOSS, "ZooKeeper"), "with cluster netns");
    }
}
