package io.lockchaos.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How far the runner's live heap ({@code heap_live_mb}: in use after a full collection; see {@link ResourceSampler})
 * grew after warm-up, read from a run's {@code resources.jsonl}: from the first
 * sample taken at or after the end of the first minute (class loading, compilation and the clients' threads are over
 * by then) to the highest sample after it. A run too short to have a sample after
 * the warm-up one cannot be judged, and says so rather than passing.
 *
 * @param warmUpSeconds when the warm-up sample was taken, in seconds since the run began
 * @param warmUpMb the live heap at that sample
 * @param highestMb the highest live heap of the samples after it
 * @param samplesAfter how many samples came after it
 */
public record ResourceGrowth(double warmUpSeconds, double warmUpMb, double highestMb, int samplesAfter) {
    /** The end of warm-up: the sampler's first periodic sample. */
    static final double WARM_UP_SECONDS = ResourceSampler.PERIOD_SECONDS;

    /** The growth in MB (never below 0: a resident set that shrank did not grow). */
    public double growthMb() {
        return Math.max(0, highestMb - warmUpMb);
    }

    /**
     * Reads {@code file}; empty when it has no sample at or after the warm-up with a later one.
     *
     * @throws IOException when the file cannot be read or a line is not a sample; the message names file and line
     */
    public static Optional<ResourceGrowth> of(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        ObjectMapper json = new ObjectMapper();
        double warmUpAt = -1;
        double warmUp = -1;
        double highest = -1;
        int after = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            JsonNode sample;
            try {
                sample = json.readTree(lines.get(i));
            } catch (IOException e) {
                throw new IOException(file + ":" + (i + 1) + ": not a resource sample");
            }
            if (!sample.path("t_s").isNumber() || !sample.path("heap_live_mb").isNumber()) {
                throw new IOException(file + ":" + (i + 1) + ": " + (sample.path("t_s").isNumber() ? "heap_live_mb"
                        : "t_s") + ": expected a number");
            }
            double t = sample.get("t_s").asDouble();
            double mb = sample.get("heap_live_mb").asDouble();
            if (warmUp < 0) {
                if (t >= WARM_UP_SECONDS) {
                    warmUpAt = t;
                    warmUp = mb;
                }
            } else {
                highest = Math.max(highest, mb);
                after++;
            }
        }
        return after == 0 ? Optional.empty() : Optional.of(new ResourceGrowth(warmUpAt, warmUp, highest, after));
    }

    /**
     * The line {@code run} prints for a bound of {@code boundMb}: where the live heap stood after warm-up, how high
     * it went after, and whether that is within the bound.
     */
    public String line(long boundMb) {
        return String.format(Locale.ROOT, "memory: live heap %.1f MB at %.0f s, at most %.1f MB in the %s"
                + " after (+%.1f MB, bound %d MB): %s", warmUpMb, warmUpSeconds, highestMb, samplesAfter == 1
                ? "sample" : samplesAfter + " samples", growthMb(), boundMb, within(boundMb) ? "within" : "NOT within");
    }

    public boolean within(long boundMb) {
        return growthMb() <= boundMb;
    }
}
