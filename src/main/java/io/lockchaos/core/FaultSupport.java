package io.lockchaos.core;

import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which fault runs on which backend, as the workload validation decides it: a fault is supported on a backend when
 * some schedule entry of that fault (any of its targets) passes {@link TestSpecs#validate} with one of that backend's
 * usual set-ups, which each lock service declares ({@link LockService#setUps}: for ZooKeeper, local and netns, 3 and
 * 5 servers, and 3 or 5 hosts over SSH; Redis, one instance and Redlock's three; PostgreSQL, one server and a primary
 * with two or four replicas; etcd, three members, five in namespaces, and clients in agents), each also with the
 * protected data in a database ({@code protected_data}), whose path has faults of its own. The Faults page's table
 * by backend is this table, so the page cannot claim what a workload file would be refused.
 */
public final class FaultSupport {
    private FaultSupport() {
    }

    /** The backends, each with the set-ups tried for it (workload keys over the defaults). */
    static final Map<String, List<Map<String, String>>> BACKENDS = backends();

    private static Map<String, List<Map<String, String>>> backends() {
        Map<String, List<Map<String, String>>> m = new LinkedHashMap<>();
        for (LockService s : LockServices.all()) {
            m.putAll(s.setUps());
        }
        return m;
    }

    /** Whether some target of {@code kind} validates on some set-up of {@code backend}. */
    static boolean supported(FaultKind kind, String backend) {
        List<String> targets = new ArrayList<>(new TreeSet<>(kind.targetNames()));
        if (kind.takesNodes()) {
            targets.add("node:2");
        }
        List<Map<String, String>> setUps = new ArrayList<>();
        for (Map<String, String> setUp : BACKENDS.get(backend)) {
            setUps.add(setUp);
            // the same set-up with the protected data in a database, where the faults of its path apply
            Map<String, String> withData = new LinkedHashMap<>(setUp);
            withData.put("protected_data", "postgres");
            setUps.add(withData);
        }
        for (Map<String, String> setUp : setUps) {
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

    /**
     * Faults that a {@code combined} entry leaves out: a failover fences every other server for the rest of the run,
     * and the disk faults lose acknowledged data or a server for good by design; membership changes need servers
     * set up for them (reconfiguration, spare servers) before the run starts; an interrupt is the application's own
     * doing, not its environment's. A schedule names them itself.
     */
    static final java.util.Set<FaultKind> NOT_COMBINED = java.util.EnumSet.of(FaultKind.FAILOVER,
            FaultKind.TRUNCATE_LOG, FaultKind.CORRUPT_LOG, FaultKind.ROLLBACK, FaultKind.REMOVE_MEMBER,
            FaultKind.ADD_MEMBER, FaultKind.REPLACE_MEMBER, FaultKind.INTERRUPT);

    private static final Map<TestSpec, List<Fault>> COMBINABLE =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * What a {@code combined} entry of {@code spec}'s schedule draws from: every fault and target that passes
     * validation for this very workload (its recipe, servers and cluster), but those of {@link #NOT_COMBINED} and the
     * targets that wait for a moment ({@code releaser}), in a fixed order so that a seed draws the same schedule.
     */
    public static List<Fault> combinable(TestSpec spec) {
        return COMBINABLE.computeIfAbsent(spec, FaultSupport::findCombinable);
    }

    private static List<Fault> findCombinable(TestSpec spec) {
        List<Fault> out = new ArrayList<>();
        for (FaultKind kind : FaultKind.values()) {
            if (NOT_COMBINED.contains(kind)) {
                continue;
            }
            for (String target : new TreeSet<>(kind.targetNames())) {
                if (target.equals("releaser")) {
                    continue;
                }
                try {
                    TestSpecs.validate("combined", TestSpecs.with("combined", spec, Map.of("nemesis", "at 1s "
                            + kind.wireName() + (target.isEmpty() ? "" : " " + target)
                            + (kind.instantaneous() ? "" : " for 1s"))));
                    out.add(new Fault(kind, target, Map.of()));
                } catch (SpecException | IllegalArgumentException refused) {
                    // this workload does not take it
                }
            }
        }
        return List.copyOf(out);
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
