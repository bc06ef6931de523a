package io.lockchaos.compare;

import java.util.List;

/**
 * What a comparison runs: the same for every column. Reliability runs use three clients that hold for 2 s against a
 * 2 s session or lease; performance runs use {@code clients} clients that hold for 1 ms, on 1 and on 10 keys,
 * without faults.
 *
 * @param columns the columns, in order
 * @param faults the fault classes of the reliability row
 * @param runs runs per column and fault class
 * @param faultSeconds the main phase of a reliability run
 * @param clients clients of a performance run
 * @param keyCounts the key counts of the performance runs
 * @param loadSeconds the main phase of a performance or herd run
 */
public record Plan(List<Column> columns, List<FaultClass> faults, int runs, int faultSeconds, int clients,
                   List<Integer> keyCounts, int loadSeconds) {
    public Plan {
        columns = List.copyOf(columns);
        faults = List.copyOf(faults);
        keyCounts = List.copyOf(keyCounts);
        if (runs < 1 || runs > 100) {
            throw new IllegalArgumentException("--runs: expected 1 to 100, got " + runs);
        }
    }

    /** The documented plan: five runs per fault class, 10 s of load. */
    public static Plan full() {
        return new Plan(List.of(Column.zooKeeper(), Column.redis(), Column.database(),
                Column.etcd()), List.of(FaultClass.values()),
                5, 8, 100, List.of(1, 10), 10);
    }

    /** One run per fault class and 3 s of load: the whole table in a few minutes. */
    public static Plan quick() {
        return new Plan(full().columns(), full().faults(), 1, 8, 100, List.of(1, 10), 3);
    }

    /** The same plan on other columns. */
    public Plan withColumns(List<Column> others) {
        if (others.isEmpty()) {
            throw new IllegalArgumentException("--locks: name at least one recipe");
        }
        return new Plan(others, faults, runs, faultSeconds, clients, keyCounts, loadSeconds);
    }

    public Plan withRuns(int n) {
        return new Plan(columns, faults, n, faultSeconds, clients, keyCounts, loadSeconds);
    }
}
