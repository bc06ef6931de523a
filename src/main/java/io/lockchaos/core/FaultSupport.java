package io.lockchaos.core;

import io.lockchaos.nemesis.FaultKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which fault runs on which backend, as the workload validation decides it: a fault is supported on a backend when
 * some schedule entry of that fault (any of its targets) passes {@link TestSpecs#validate} with one of that backend's
 * usual set-ups (for ZooKeeper: local and netns, 3 and 5 servers; Redis: one instance and Redlock's three; PostgreSQL:
 * one server and a primary with two or four replicas; etcd: three members). The Faults page's table by backend is this
 * table, so the page cannot claim what a workload file would be refused.
 */
public final class FaultSupport {
    private FaultSupport() {
    }

    /** The backends, each with the set-ups tried for it (workload keys over the defaults). */
    static final Map<String, List<Map<String, String>>> BACKENDS = backends();

    private static Map<String, List<Map<String, String>>> backends() {
        Map<String, List<Map<String, String>>> m = new LinkedHashMap<>();
        m.put("ZooKeeper", List.of(Map.of("recipe", "mutex", "nodes", "3"), Map.of("recipe", "mutex", "nodes", "5"),
                Map.of("recipe", "mutex", "nodes", "3", "cluster", "netns")));
        m.put("Redis", List.of(Map.of("recipe", "redis-single", "nodes", "1"), Map.of("recipe", "redlock", "nodes",
                "3")));
        m.put("PostgreSQL", List.of(Map.of("recipe", "pg-advisory", "nodes", "1"), Map.of("recipe", "pg-lease",
                "nodes", "3", "pg_replication", "async"), Map.of("recipe", "pg-lease", "nodes", "5", "pg_replication",
                "async")));
        m.put("etcd", List.of(Map.of("recipe", "etcd-lock", "nodes", "3")));
        return m;
    }

    /** Whether some target of {@code kind} validates on some set-up of {@code backend}. */
    static boolean supported(FaultKind kind, String backend) {
        List<String> targets = new ArrayList<>(new TreeSet<>(kind.targetNames()));
        if (kind.takesNodes()) {
            targets.add("node:2");
        }
        for (Map<String, String> setUp : BACKENDS.get(backend)) {
            for (String target : targets) {
                Map<String, String> keys = new LinkedHashMap<>(setUp);
                keys.put("clients", "5");
                keys.put("nemesis", "at 1s " + kind.wireName() + (target.isEmpty() ? "" : " " + target)
                        + (kind.instantaneous() ? "" : " for 1s"));
                try {
                    TestSpecs.validate("table", TestSpecs.with("table", TestSpec.DEFAULTS, keys));
                    return true;
                } catch (SpecException | IllegalArgumentException refused) {
                    // not with this set-up and target: try the next
                }
            }
        }
        return false;
    }

    /** The table of the Faults page: a row per fault, a column per backend. */
    public static String markdownTable() {
        StringBuilder b = new StringBuilder("| fault |");
        BACKENDS.keySet().forEach(k -> b.append(' ').append(k).append(" |"));
        b.append("\n|---|");
        BACKENDS.keySet().forEach(k -> b.append("---|"));
        b.append('\n');
        for (FaultKind k : FaultKind.values()) {
            b.append("| `").append(k.wireName()).append("` |");
            for (String backend : BACKENDS.keySet()) {
                b.append(supported(k, backend) ? " yes |" : " - |");
            }
            b.append('\n');
        }
        return b.toString();
    }
}
