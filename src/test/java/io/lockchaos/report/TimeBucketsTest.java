package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimeBucketsTest {
    @Test
    void widthIsTheSmallestRoundStepThatFitsTheTarget() {
        assertEquals(1_000, TimeBuckets.width(0, 100));
        assertEquals(1_000, TimeBuckets.width(100_000, 100));
        assertEquals(2_000, TimeBuckets.width(100_001, 100));
        assertEquals(5_000_000, TimeBuckets.width(295_000_000, 100));
        assertEquals(1_000_000_000, TimeBuckets.width(100_000_000_000L, 100));
        assertEquals(20_000_000_000L, TimeBuckets.width(100_000_000_001L, 10));
    }

    @Test
    void quantilesAreNearestRankPerBucketAndEmptyBucketsAreLeftOut() {
        // Bucket 0 (width 10): values 1..100 shuffled; bucket 2: one value; bucket 1: nothing.
        long[] times = new long[101];
        long[] values = new long[101];
        for (int i = 0; i < 100; i++) {
            times[i] = i % 10;
            values[i] = (i * 37) % 100 + 1;
        }
        times[100] = 25;
        values[100] = 7;
        List<TimeBuckets.Quantiles> q = TimeBuckets.quantiles(times, values, 10);
        assertEquals(List.of(new TimeBuckets.Quantiles(0, 100, 50, 95, 99, 100),
                new TimeBuckets.Quantiles(20, 1, 7, 7, 7, 7)), q);
    }

    @Test
    void nearestRankOfSmallSamples() {
        assertEquals(2, TimeBuckets.rank(new long[] {1, 2, 3, 4}, 0.5));
        assertEquals(4, TimeBuckets.rank(new long[] {1, 2, 3, 4}, 0.95));
        assertEquals(1, TimeBuckets.rank(new long[] {1, 2, 3, 4}, 0.0));
    }

    @Test
    void countsCoverBucketZeroToTheEnd() {
        assertArrayEquals(new long[] {2, 0, 1, 1}, TimeBuckets.counts(new long[] {0, 9, 20, 39, -5, 50}, 10, 35));
    }
}
