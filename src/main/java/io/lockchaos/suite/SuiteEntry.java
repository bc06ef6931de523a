package io.lockchaos.suite;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One workload's line in a suite run.
 *
 * @param file the workload file as given
 * @param name the workload's name (its run folder's)
 * @param outcome what became of it
 * @param verdict the run's verdict ({@code valid}, {@code invalid}, {@code unknown}), or empty when there was none
 * @param expected the verdict its workload expects
 * @param seconds the run's wall time
 * @param runDir the stored run, or empty
 * @param replay the command that runs it again exactly, or empty
 * @param firstStory the first anomaly line of its summary, or empty
 * @param summary its summary.txt (or the end of its output when it crashed)
 * @param reproduced with {@code --repeat}: in how many of the {@code repeats} further runs the expectation was missed
 * @param repeats the further runs made
 * @param minimal with {@code --shrink}: the smaller workload that still fails ({@code RUN_DIR/minimal.json}), or
 *     empty when none was made
 */
public record SuiteEntry(String file, String name, Outcome outcome, String verdict, String expected, double seconds,
                         String runDir, String replay, String firstStory, String summary, int reproduced,
                         int repeats, String minimal) {
    public SuiteEntry(String file, String name, Outcome outcome, String verdict, String expected, double seconds,
                      String runDir, String replay, String firstStory, String summary, int reproduced, int repeats) {
        this(file, name, outcome, verdict, expected, seconds, runDir, replay, firstStory, summary, reproduced, repeats,
                "");
    }

    /** What became of a workload in a suite run. */
    public enum Outcome {
        /** The run reached the verdict its workload expects. */
        MET,
        /** The run reached another verdict. */
        NOT_MET,
        /** The run ended without a verdict (an error, bad input, a crash). */
        CRASHED,
        /** The budget ran out while it ran: it was stopped. */
        CUT,
        /** The budget ran out before it began. */
        SKIPPED;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        public static Outcome parse(String s) {
            return valueOf(s.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        }
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file);
        m.put("name", name);
        m.put("outcome", outcome.wireName());
        m.put("verdict", verdict);
        m.put("expected", expected);
        m.put("seconds", Math.round(seconds * 10) / 10.0);
        m.put("run_dir", runDir);
        m.put("replay", replay);
        m.put("first_story", firstStory);
        m.put("reproduced", reproduced);
        m.put("repeats", repeats);
        m.put("minimal", minimal);
        return m;
    }

    /** Reads what {@link #toMap} wrote (the summary stays in the run's folder). */
    public static SuiteEntry fromMap(Map<?, ?> m) {
        return new SuiteEntry(str(m, "file"), str(m, "name"), Outcome.parse(str(m, "outcome")), str(m, "verdict"),
                str(m, "expected"), m.get("seconds") instanceof Number n ? n.doubleValue() : 0, str(m, "run_dir"),
                str(m, "replay"), str(m, "first_story"), "", m.get("reproduced") instanceof Number n ? n.intValue() : 0,
                m.get("repeats") instanceof Number n ? n.intValue() : 0, str(m, "minimal"));
    }

    private static String str(Map<?, ?> m, String k) {
        Object v = m.get(k);
        return v == null ? "" : v.toString();
    }
}
