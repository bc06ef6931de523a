package io.lockchaos.compare;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a comparison measured for one column.
 *
 * @param column the column
 * @param reliability the reliability runs per fault class
 * @param load the fault-free performance and herd runs, judged like any other
 * @param acquiresPerSecond granted acquires per second per key count, without faults
 * @param herd per recipe, the wake-ups a grant cost: watch notifications (ZooKeeper) or requests to the lock service
 *     (the polling and queueing locks)
 * @param herdUnit what {@code herd} counts
 * @param codeLines code lines of the column's sources (no blank lines, comments, imports), or -1 when the jar
 *     lacks them
 * @param lockTypes the kinds of lock lockchaos drives on the backend
 * @param recoveries one per cut-off run
 * @param runs every run folder, in order
 * @param stopped why the comparison stopped in or before this column, or null when every run of it was made
 */
public record ColumnResult(Column column, Map<FaultClass, Tally> reliability, Tally load,
                           Map<Integer, Double> acquiresPerSecond,
                           Map<String, Double> herd, String herdUnit, int codeLines, List<String> lockTypes,
                           List<Recovery> recoveries, List<Path> runs, String stopped) {
    /** A column whose runs were all made. */
    public ColumnResult(Column column, Map<FaultClass, Tally> reliability, Tally load,
                        Map<Integer, Double> acquiresPerSecond, Map<String, Double> herd, String herdUnit,
                        int codeLines, List<String> lockTypes, List<Recovery> recoveries, List<Path> runs) {
        this(column, reliability, load, acquiresPerSecond, herd, herdUnit, codeLines, lockTypes, recoveries, runs,
                null);
    }

    public ColumnResult {
        reliability = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(reliability));
        acquiresPerSecond = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(acquiresPerSecond));
        herd = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(herd));
        lockTypes = List.copyOf(lockTypes);
        recoveries = List.copyOf(recoveries);
        runs = List.copyOf(runs);
    }
}
