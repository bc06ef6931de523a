package io.lockchaos.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One stored run's folder and the name of every file in it. Runs, checks, reports, shrinks and the store's viewer all
 * find a run's files here, so a name changes in one place and a reader never guesses at a writer's spelling.
 */
public record RunDir(Path path) {
    public static final String HISTORY = "history.jsonl";
    public static final String HISTORY_EDN = "history.edn";
    public static final String TEST = "test.json";
    public static final String RESULTS = "results.json";
    public static final String SUMMARY = "summary.txt";
    public static final String TIMELINE = "timeline.html";
    public static final String JUNIT = "junit.xml";
    public static final String CLIENT_LOG = "client.log";
    /** What a run that did not finish leaves behind, saying why. */
    public static final String CRASHED = "crashed.json";
    public static final String MINIMAL = "minimal.json";
    /**
     * Room kept for crashed.json while a run writes (the runner keeps it from its start): on a full disk the history's
     * last write failed, and crashed.json came out empty. Given back before the results are written, or before
     * crashed.json, and when the run ends whichever way.
     */
    static final String RESERVE = ".space-reserve";
    private static final int RESERVE_BYTES = 64 << 10;
    public static final String SHRINK_LOG = "shrink.json";
    /** The plots' names; each is written as .png and .svg. */
    public static final String LATENCY_PLOT = "latency";
    public static final String QUANTILES_PLOT = "latency-quantiles";
    public static final String RATE_PLOT = "rate";
    public static final List<String> PLOTS = List.of(LATENCY_PLOT + ".png", QUANTILES_PLOT + ".png", RATE_PLOT + ".png");
    /** The files a viewer of the store offers, in the order it lists them. */
    public static final List<String> SHOWN = List.of(TIMELINE, SUMMARY, RESULTS, TEST, HISTORY, JUNIT, CLIENT_LOG);

    public static RunDir of(Path path) {
        return new RunDir(path);
    }

    public Path history() {
        return path.resolve(HISTORY);
    }

    public Path historyEdn() {
        return path.resolve(HISTORY_EDN);
    }

    public Path test() {
        return path.resolve(TEST);
    }

    public Path results() {
        return path.resolve(RESULTS);
    }

    public Path summary() {
        return path.resolve(SUMMARY);
    }

    public Path timeline() {
        return path.resolve(TIMELINE);
    }

    public Path junit() {
        return path.resolve(JUNIT);
    }

    /** The runner's resource samples (heap, resident set, descriptors, threads), one JSON line each. */
    public Path resources() {
        return path.resolve("resources.jsonl");
    }

    public Path clientLog() {
        return path.resolve(CLIENT_LOG);
    }

    public Path crashed() {
        return path.resolve(CRASHED);
    }

    public Path minimal() {
        return path.resolve(MINIMAL);
    }

    public Path shrinkLog() {
        return path.resolve(SHRINK_LOG);
    }

    /** Whether the folder holds a recorded history (a symbolic link does not count: the store is walked safely). */
    public boolean hasHistory() {
        return Files.isRegularFile(history(), LinkOption.NOFOLLOW_LINKS);
    }

    /** Whether the folder was written by lockchaos (its test.json beside the history). */
    public boolean hasTest() {
        return Files.isRegularFile(test());
    }

    /**
     * Records that the run did not finish: the one-line error and the phase it was in, so the store shows why instead
     * of a run nobody checked. Never throws: a run that failed must still report its own error.
     */
    public void recordCrash(String phase, String error) {
        releaseSpace();
        try {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("phase", phase);
            m.put("error", error);
            new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                    .writeValue(crashed().toFile(), m);
        } catch (IOException | RuntimeException e) {
            System.err.println("lockchaos: warning: " + crashed() + " not written (" + e + ")");
        }
    }

    /** Keeps room for crashed.json (best effort: a disk already full keeps none). */
    public void reserveSpace() {
        try {
            Files.write(path.resolve(RESERVE), new byte[RESERVE_BYTES]);
        } catch (IOException e) {
            releaseSpace();
        }
    }

    /** Gives the room kept by {@link #reserveSpace} back. */
    public void releaseSpace() {
        try {
            Files.deleteIfExists(path.resolve(RESERVE));
        } catch (IOException e) {
            // nothing kept, nothing to give back
        }
    }
}
