package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.history.Times;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Leaked locks and orphan lock nodes, judged after the history's last {@code heal} or {@code quiesce} marker, when
 * every fault is over. An acquire invoked after the marker that failed (timed out) although no process certainly held
 * the key during its wait is a leaked lock; if an indeterminate acquirer might have held it the leak is only suspect.
 * The final {@code inspect} op lists the lock nodes still present ({@code nodes: [{key, node, owner}]}) and the
 * sessions still open ({@code sessions}); a node whose owner session is closed, or whose owner holds nothing on that
 * key at the inspection, is an orphan. Without a marker there is nothing to judge and the answer is valid with a note
 * in the stats.
 */
public final class LeakChecker implements Checker {
    private final Recipe recipe;

    public LeakChecker(Recipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public String name() {
        return "leaks";
    }

    @Override
    public CheckResult check(History h) {
        List<Op> ops = h.ops();
        long marker = -1;
        for (Op op : ops) {
            if (op.isNemesis() && (op.f() == Fn.HEAL || op.f() == Fn.QUIESCE) && op.type() != OpType.INVOKE) {
                marker = op.time();
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        if (marker < 0) {
            stats.put("note", "no heal or quiesce marker: leaks not judged");
            return CheckResult.of(name(), List.of(), stats);
        }
        LockHolds holds = LockHolds.of(h, recipe);
        List<Anomaly> anomalies = new ArrayList<>();
        long probes = 0;
        long leaks = 0;
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.f() != Fn.ACQUIRE || op.type() != OpType.INVOKE || op.time() < marker || op.isNemesis()) {
                continue;
            }
            probes++;
            if (h.outcome(i) != OpType.FAIL) {
                continue;
            }
            Op done = ops.get(h.completionOf(i));
            for (String key : LockHolds.keysOf(op)) {
                boolean certainlyHeld = false;
                boolean possiblyHeld = false;
                for (Hold x : holds.holds(key)) {
                    if (x.process() == op.process()) {
                        continue;
                    }
                    if (x.isCertain() && x.certainStart() < done.time() && x.certainEnd() > op.time()) {
                        certainlyHeld = true;
                        break;
                    }
                    if (x.possibleStart() < done.time() && x.possibleEnd() > op.time()) {
                        possiblyHeld = true;
                    }
                }
                if (certainlyHeld) {
                    continue;
                }
                leaks++;
                AnomalyKind kind = AnomalyKind.LEAKED_LOCK;
                Severity sev = possiblyHeld ? Severity.SUSPECT : kind.defaultSeverity();
                Anomaly.addCapped(anomalies, new Anomaly(kind, sev, key, List.of(done.index(), op.index()),
                        op.time(), done.time(), "after the final heal at " + Times.at(marker) + ", process "
                                + op.process() + " could not acquire " + key + " within "
                                + Times.span(done.time() - op.time()) + " although no process "
                                + (possiblyHeld ? "certainly held it (an indeterminate acquire might have)"
                                : "held it"), Map.of("wait_ns", done.time() - op.time())));
            }
        }
        long orphans = inspect(h, holds, anomalies);
        stats.put("marker_time_ns", marker);
        stats.put("acquires_after_marker", probes);
        stats.put("leaked", leaks);
        stats.put("orphan_nodes", orphans);
        return CheckResult.of(name(), anomalies, stats);
    }

    private static long inspect(History h, LockHolds holds, List<Anomaly> anomalies) {
        Op inspection = null;
        for (Op op : h.ops()) {
            if (op.f() == Fn.INSPECT && op.type() == OpType.OK) {
                inspection = op;
            }
        }
        if (inspection == null) {
            return 0;
        }
        Set<Long> open = new HashSet<>();
        for (Object s : inspection.listField("sessions")) {
            if (s instanceof Number n) {
                open.add(n.longValue());
            }
        }
        long at = inspection.time();
        // Which sessions hold (or are acquiring) which key at the inspection.
        Map<String, Set<Long>> holding = new HashMap<>();
        for (Map.Entry<String, List<Hold>> e : holds.byKey().entrySet()) {
            for (Hold x : e.getValue()) {
                if (x.grant().session() != 0 && x.possibleStart() <= at && x.possibleEnd() > at) {
                    holding.computeIfAbsent(e.getKey(), k -> new HashSet<>()).add(x.grant().session());
                }
            }
        }
        long orphans = 0;
        for (Object o : inspection.listField("nodes")) {
            if (!(o instanceof Map<?, ?> node)) {
                continue;
            }
            String key = String.valueOf(node.get("key"));
            String path = String.valueOf(node.get("node"));
            long owner = node.get("owner") instanceof Number n ? n.longValue() : 0;
            String why;
            if (inspection.field("sessions") != null && !open.contains(owner)) {
                why = "its owner session " + MutualExclusionChecker.hex(owner) + " is closed";
            } else if (!holding.getOrDefault(key, Set.of()).contains(owner)) {
                why = "its owner session " + MutualExclusionChecker.hex(owner) + " does not hold " + key;
            } else {
                continue;
            }
            orphans++;
            Anomaly.addCapped(anomalies, Anomaly.of(AnomalyKind.ORPHAN_NODE, key, List.of(inspection.index()),
                    at, at, "lock node " + path + " was still present at the final inspection but " + why,
                    Map.of("node", path, "owner", owner)));
        }
        return orphans;
    }
}
