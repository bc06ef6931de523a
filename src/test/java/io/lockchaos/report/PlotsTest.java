package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlotsTest {
    private static FaultPeriods.Period p(long start, long end) {
        return new FaultPeriods.Period("f", start, end, true, 0, 1);
    }

    @Test
    void overlappingAndUnsortedFaultPeriodsShadeAsTheirUnion() {
        List<long[]> u = Plots.union(List.of(p(50, 60), p(10, 30), p(20, 40), p(40, 45)));
        assertEquals(2, u.size());
        assertArrayEquals(new long[] {10, 45}, u.get(0));
        assertArrayEquals(new long[] {50, 60}, u.get(1));
    }
}
