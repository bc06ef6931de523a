package io.lockchaos.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Each workload's outcomes over the stored suite runs ({@code <store>/suite/<time>/suite.json}), oldest first, and
 * what changed: newly failing (met its expectation last time, not now), fixed (the other way), flaky (its last
 * {@value #WINDOW} outcomes flip between met and missed more than once).
 */
public final class Trends {
    /** How many suite runs the flaky mark looks back over. */
    static final int WINDOW = 5;

    /** What changed for a workload between the previous suite run and this one. */
    public enum Change {
        NEW_FAILURE("newly failing"), FIXED("fixed"), STILL_FAILING("still failing"), NEW_WORKLOAD("new"),
        UNCHANGED("");

        private final String words;

        Change(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /**
     * One workload's row.
     *
     * @param outcomes its outcome in each suite run, oldest first (null where the run did not have it)
     */
    public record Row(String name, List<SuiteEntry.Outcome> outcomes, Change change, boolean flaky) {
    }

    private final List<Path> runs;
    private final List<Row> rows;

    private Trends(List<Path> runs, List<Row> rows) {
        this.runs = List.copyOf(runs);
        this.rows = List.copyOf(rows);
    }

    public List<Path> runs() {
        return runs;
    }

    public List<Row> rows() {
        return rows;
    }

    /** The suite runs stored under {@code suiteRoot} (the store's {@code suite/}), up to and including {@code last}. */
    public static Trends of(Path suiteRoot, Path last) throws IOException {
        List<Path> dirs = new ArrayList<>();
        if (Files.isDirectory(suiteRoot)) {
            try (Stream<Path> s = Files.list(suiteRoot)) {
                s.filter(d -> !Files.isSymbolicLink(d) && Files.isRegularFile(d.resolve("suite.json"))).sorted()
                        .forEach(dirs::add);
            }
        }
        if (last != null) {
            Path end = last.toAbsolutePath().normalize();
            int i = dirs.stream().map(d -> d.toAbsolutePath().normalize()).toList().indexOf(end);
            if (i >= 0) {
                dirs = new ArrayList<>(dirs.subList(0, i + 1));
            }
        }
        List<SuiteRecord> records = new ArrayList<>();
        for (Path d : dirs) {
            try {
                records.add(SuiteRecord.read(d));
            } catch (IOException | RuntimeException e) {
                records.add(null); // a record cut mid-write by a killed suite: a gap in the row
            }
        }
        Map<String, List<SuiteEntry.Outcome>> byName = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            SuiteRecord r = records.get(i);
            if (r == null) {
                continue;
            }
            for (SuiteEntry e : r.entries()) {
                List<SuiteEntry.Outcome> row = byName.computeIfAbsent(e.name(), k -> new ArrayList<>());
                while (row.size() < i) {
                    row.add(null);
                }
                if (row.size() == i) {
                    row.add(e.outcome());
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, List<SuiteEntry.Outcome>> e : byName.entrySet()) {
            List<SuiteEntry.Outcome> row = new ArrayList<>(e.getValue());
            while (row.size() < records.size()) {
                row.add(null);
            }
            rows.add(new Row(e.getKey(), row, change(row), flaky(row)));
        }
        return new Trends(dirs, rows);
    }

    private static Change change(List<SuiteEntry.Outcome> row) {
        SuiteEntry.Outcome now = row.get(row.size() - 1);
        SuiteEntry.Outcome before = null;
        for (int i = row.size() - 2; i >= 0 && before == null; i--) {
            before = decided(row.get(i)) ? row.get(i) : null;
        }
        if (!decided(now)) {
            return Change.UNCHANGED;
        }
        if (before == null) {
            return row.stream().limit(row.size() - 1).allMatch(o -> o == null) ? Change.NEW_WORKLOAD
                    : Change.UNCHANGED;
        }
        if (before == SuiteEntry.Outcome.MET && now == SuiteEntry.Outcome.NOT_MET) {
            return Change.NEW_FAILURE;
        }
        if (before == SuiteEntry.Outcome.NOT_MET && now == SuiteEntry.Outcome.MET) {
            return Change.FIXED;
        }
        return now == SuiteEntry.Outcome.NOT_MET ? Change.STILL_FAILING : Change.UNCHANGED;
    }

    private static boolean decided(SuiteEntry.Outcome o) {
        return o == SuiteEntry.Outcome.MET || o == SuiteEntry.Outcome.NOT_MET;
    }

    private static boolean flaky(List<SuiteEntry.Outcome> row) {
        List<SuiteEntry.Outcome> last = row.subList(Math.max(0, row.size() - WINDOW), row.size()).stream()
                .filter(Trends::decided).toList();
        int flips = 0;
        for (int i = 1; i < last.size(); i++) {
            flips += last.get(i) != last.get(i - 1) ? 1 : 0;
        }
        return flips >= 2;
    }

    /** The comparison with the previous suite run, one line per workload that changed; empty when none did. */
    public List<String> changes() {
        List<String> out = new ArrayList<>();
        for (Row r : rows) {
            String what = r.change().words();
            if (r.flaky()) {
                what = what.isEmpty() ? "flaky" : what + ", flaky";
            }
            if (!what.isEmpty()) {
                out.add(what + ": " + r.name());
            }
        }
        return out;
    }
}
