package io.lockchaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.fault.FaultKind;
import org.junit.jupiter.api.Test;

/** Which servers a partition shape separates (halves, a ring, a bridge). */
class PartitionShapesTest {
    @Test
    void partitionShapes() {
        // halves of 5: positions 0,1 against 2,3,4
        assertTrue(NetworkNemesis.separated(FaultKind.PARTITION_HALVES, 1, 2, 5));
        assertFalse(NetworkNemesis.separated(FaultKind.PARTITION_HALVES, 2, 4, 5));
        // a ring of 5: each server keeps two neighbours, so it sees a majority of 3
        for (int i = 0; i < 5; i++) {
            int reach = 1;
            for (int j = 0; j < 5; j++) {
                if (j != i && !NetworkNemesis.separated(FaultKind.PARTITION_RING, Math.min(i, j), Math.max(i, j), 5)) {
                    reach++;
                }
            }
            assertEquals(3, reach, "server " + i);
        }
        // a bridge of 5: 0,1 | 2 | 3,4
        assertTrue(NetworkNemesis.separated(FaultKind.PARTITION_BRIDGE, 0, 4, 5));
        assertFalse(NetworkNemesis.separated(FaultKind.PARTITION_BRIDGE, 1, 2, 5));
        assertFalse(NetworkNemesis.separated(FaultKind.PARTITION_BRIDGE, 2, 3, 5));
    }
}
