package io.lockchaos.workload;

/**
 * An immutable random stream: the value at a position is SplitMix64 of the position, so a generator can carry its
 * randomness and hand out the rest of the stream without sharing mutable state.
 */
record Rng(long state) {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /** The stream one step on. */
    Rng advance() {
        return new Rng(state + GOLDEN);
    }

    long nextLong() {
        long z = state + GOLDEN;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, 1). */
    double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }
}
