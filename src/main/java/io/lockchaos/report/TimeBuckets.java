package io.lockchaos.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Fixed-width time buckets for the plots: a round bucket width, per-bucket latency quantiles and per-bucket counts.
 * Pure functions over arrays, so they are tested on a handful of numbers.
 */
public final class TimeBuckets {
    private TimeBuckets() {
    }

    /**
     * Latency quantiles of one bucket. Quantiles are nearest-rank: the smallest sample with at least that fraction of
     * the samples at or below it, so every reported value was observed.
     *
     * @param start bucket start (ns)
     * @param count samples in the bucket (never 0: empty buckets are left out)
     */
    public record Quantiles(long start, int count, long p50, long p95, long p99, long max) {
    }

    /**
     * Returns a 1-2-5 width (1 µs, 2 µs, 5 µs, 10 µs ... ) such that {@code span} falls into at most {@code target}
     * buckets, and at least 1 µs.
     */
    public static long width(long span, int target) {
        if (target < 1) {
            throw new IllegalArgumentException("target must be at least 1");
        }
        long w = 1_000;
        while (true) {
            for (long m : new long[] {1, 2, 5}) {
                long candidate = w * m;
                if ((Math.max(span, 1) + candidate - 1) / candidate <= target) {
                    return candidate;
                }
            }
            w *= 10;
        }
    }

    /** The bucket of {@code time}: {@code floor(time / width)}. */
    public static int bucket(long time, long width) {
        return (int) Math.floorDiv(time, width);
    }

    /**
     * Groups samples by the bucket of their time and returns the quantiles of each non-empty bucket, in time order.
     *
     * @param times sample times (ns), any order
     * @param values the samples (same length as {@code times})
     */
    public static List<Quantiles> quantiles(long[] times, long[] values, long width) {
        if (times.length != values.length) {
            throw new IllegalArgumentException("times and values differ in length");
        }
        // Each bucket's values into an array of its own (a counting pass, then a filling pass), each sorted as
        // primitives: a million samples sort in a fraction of what sorting boxed positions by (bucket, value) took.
        java.util.TreeMap<Integer, long[]> runs = new java.util.TreeMap<>();
        java.util.HashMap<Integer, int[]> sizes = new java.util.HashMap<>();
        for (long t : times) {
            sizes.computeIfAbsent(bucket(t, width), k -> new int[1])[0]++;
        }
        java.util.HashMap<Integer, int[]> filled = new java.util.HashMap<>();
        for (int i = 0; i < times.length; i++) {
            int b = bucket(times[i], width);
            long[] run = runs.computeIfAbsent(b, k -> new long[sizes.get(k)[0]]);
            run[filled.computeIfAbsent(b, k -> new int[1])[0]++] = values[i];
        }
        List<Quantiles> out = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : runs.entrySet()) {
            long[] run = e.getValue();
            Arrays.sort(run);
            out.add(new Quantiles(e.getKey() * width, run.length, rank(run, 0.50), rank(run, 0.95), rank(run, 0.99),
                    run[run.length - 1]));
        }
        return out;
    }

    /** Nearest-rank quantile of a sorted, non-empty array. */
    static long rank(long[] sorted, double q) {
        int r = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, r) - 1)];
    }

    /** Counts of the times in each bucket from bucket 0 to the bucket of {@code end} inclusive; earlier times are dropped. */
    public static long[] counts(long[] times, long width, long end) {
        long[] n = new long[bucket(Math.max(end, 0), width) + 1];
        for (long t : times) {
            int b = bucket(t, width);
            if (b >= 0 && b < n.length) {
                n[b]++;
            }
        }
        return n;
    }
}
