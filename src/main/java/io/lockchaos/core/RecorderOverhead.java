package io.lockchaos.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * What recording costs: recorded and not-recorded rounds of the same workload, each on a fresh ensemble, in pairs
 * whose order alternates (so drift over time favours neither side); the first pair warms the JVM and is not judged.
 *
 * @param pairs each judged pair's loss, 100 * (1 - recorded / not recorded), in percent, sorted
 */
public record RecorderOverhead(List<Double> pairs) {
    /** One pair as measured, for a progress line. */
    public record Pair(int index, boolean judged, double recorded, double plain) {
        public double loss() {
            return 100 * (1 - recorded / plain);
        }
    }

    /**
     * Measures {@code judgedPairs} pairs (plus the warm-up) with {@code runner}, telling {@code each} about every pair.
     */
    public static RecorderOverhead measure(Runner runner, int judgedPairs, Consumer<Pair> each) throws Exception {
        if (judgedPairs < 1) {
            throw new IllegalArgumentException("--overhead-pairs: expected at least 1, got " + judgedPairs);
        }
        List<Double> losses = new ArrayList<>();
        for (int i = 0; i <= judgedPairs; i++) {
            boolean recordedFirst = i % 2 == 0;
            double first = runner.grantsPerSecond(recordedFirst);
            double second = runner.grantsPerSecond(!recordedFirst);
            Pair p = new Pair(i, i > 0, recordedFirst ? first : second, recordedFirst ? second : first);
            each.accept(p);
            if (p.judged()) {
                losses.add(p.loss());
            }
        }
        Collections.sort(losses);
        return new RecorderOverhead(List.copyOf(losses));
    }

    public double median() {
        int n = pairs.size();
        return n % 2 == 1 ? pairs.get(n / 2) : (pairs.get(n / 2 - 1) + pairs.get(n / 2)) / 2;
    }
}
