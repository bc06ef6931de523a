package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecorderOverheadTest {
    @Test
    void theMedianOfAnOddAndAnEvenNumberOfPairs() {
        assertEquals(2.0, new RecorderOverhead(List.of(-1.0, 2.0, 7.5)).median());
        assertEquals(1.5, new RecorderOverhead(List.of(-1.0, 1.0, 2.0, 9.0)).median());
        assertEquals(25.0, new RecorderOverhead.Pair(1, true, 75, 100).loss(), 1e-9);
    }

    @Test
    void noJudgedPairIsRefusedBeforeAnythingRuns() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RecorderOverhead.measure(null, 0, p -> { }));
        assertEquals("--overhead-pairs: expected at least 1, got 0", e.getMessage());
    }
}
