package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.history.Times;
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
 * A re-acquire by a process that already held the key is no probe: its refusal is the recipe's business.
 * The final {@code inspect} op lists the lock nodes still present ({@code nodes: [{key, node, owner}]}) and the
 * sessions still open ({@code sessions}); a node whose owner session is closed, or whose owner holds nothing on that
 * key at the inspection, is an orphan. With neither an acquire after a marker nor an inspection there is nothing to
 * judge, and the result says so (unknown on its own). Where the inspection read each server on its own, the nodes
 * only some servers had ({@code diverged}) are reported as {@code servers-diverged}: replicas that lost transactions.
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
        int marker = finalMarker(h);
        Map<String, Object> stats = new LinkedHashMap<>();
        LockHolds holds = LockHolds.of(h, recipe);
        Anomalies anomalies = new Anomalies();
        int inspection = inspectionAt(h);
        long orphans = inspect(h, inspection, holds, anomalies);
        boolean inspected = inspection != -1;
        stats.put("inspected", inspected);
        long diverged = inspected ? diverged(h.get(inspection), anomalies) : 0;
        if (diverged > 0) {
            stats.put("diverged_nodes", diverged);
        }
        if (marker == -1) {
            stats.put("orphan_nodes", orphans);
            if (!inspected) {
                return CheckResult.nothingToCheck(name(), "no heal or quiesce marker and no final inspection", stats);
            }
            stats.put("note", "no heal or quiesce marker: only the final inspection was judged");
            return CheckResult.of(name(), anomalies, stats);
        }
        long markerTime = ops.get(marker).time();
        // an election's failed probe is a term nobody won: the leader-election checker reports it as such
        Probes probes = probe(h, holds, marker, recipe.leadership() ? new Anomalies() : anomalies,
                AnomalyKind.LEAKED_LOCK);
        stats.put("marker_time_ns", markerTime);
        stats.put("acquires_after_marker", probes.probes());
        stats.put("reacquires_after_marker", probes.reentries());
        // an election's failed probes are the leader-election checker's no-leader, not leaks: counted there
        stats.put("leaked", recipe.leadership() ? 0L : probes.leaks());
        stats.put("orphan_nodes", orphans);
        if (probes.probes() == 0 && !inspected) {
            return CheckResult.nothingToCheck(name(), "no acquire after the final heal and no final inspection", stats);
        }
        return CheckResult.of(name(), anomalies, stats);
    }

    /** Acquires after the final heal: probes, re-acquires by a holder, and failed probes nobody explains. */
    record Probes(long probes, long reentries, long leaks) {
    }

    /** Position of the last completed {@code heal} or {@code quiesce} marker, or -1. */
    static int finalMarker(History h) {
        List<Op> ops = h.ops();
        int marker = -1;
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.isNemesis() && (op.f() == Fn.HEAL || op.f() == Fn.QUIESCE) && op.type() != OpType.INVOKE) {
                marker = i;
            }
        }
        return marker;
    }

    /**
     * Judges every acquire invoked after the marker at {@code marker}: one that failed while no other process
     * certainly held the key is reported as {@code kind} (a leaked lock; a term nobody won), suspect when an
     * indeterminate acquire might have held it.
     */
    static Probes probe(History h, LockHolds holds, int marker, Anomalies anomalies, AnomalyKind kind) {
        List<Op> ops = h.ops();
        long markerTime = ops.get(marker).time();
        long probes = 0;
        long leaks = 0;
        long reentries = 0;
        for (int i = marker + 1; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.f() != Fn.ACQUIRE || op.type() != OpType.INVOKE || op.isNemesis()) {
                continue;
            }
            boolean failed = h.outcome(i) == OpType.FAIL;
            int c = h.completionOf(i);
            for (String key : LockHolds.keysOf(op)) {
                if (heldBy(holds, key, op.process(), i)) {
                    reentries++; // a re-acquire: its refusal is the reentrancy checker's business, not a leak
                    continue;
                }
                probes++;
                if (!failed) {
                    slowProbe(h, holds, op, i, c, key, markerTime, anomalies);
                    continue;
                }
                boolean certainlyHeld = false;
                boolean possiblyHeld = false;
                for (Hold x : holds.holds(key)) {
                    if (x.process() == op.process()) {
                        continue;
                    }
                    if (x.isCertain() && x.certain().overlaps(i, c + 1L)) {
                        certainlyHeld = true;
                        break;
                    }
                    if (x.possible().overlaps(i, c + 1L)) {
                        possiblyHeld = true;
                    }
                }
                if (certainlyHeld) {
                    continue;
                }
                leaks++;
                Op done = ops.get(c);
                long wait = Math.max(0, done.time() - op.time());
                Severity sev = possiblyHeld ? Severity.SUSPECT : kind.defaultSeverity();
                boolean election = kind == AnomalyKind.NO_LEADER;
                anomalies.add(new Anomaly(kind, sev, key, List.of(done.index(), op.index()),
                        op.time(), done.time(), "after the final heal at " + Times.at(markerTime) + ", process "
                                + op.process() + (election ? " was not elected leader of " : " could not acquire ")
                                + LockHolds.describe(key) + " within " + Times.span(wait) + " although no process "
                                + (possiblyHeld ? (election ? "certainly led" : "certainly held it")
                                + " (an indeterminate acquire might have)" : election ? "led" : "held it"),
                        Map.of("wait_ns", wait)));
            }
        }
        return new Probes(probes, reentries, leaks);
    }

    /**
     * A probe that got the lock, but only after waiting longer than its {@code leak_after_ms} (the run's acquire
     * timeout; the probe itself may wait out a lease) while nobody even possibly held the key: a lock that outlived
     * every holder until its lease ran out. A note: a lease ending is how such a lock is meant to come back, and a
     * failed attempt that could not give its key back leaves one by design; the note says where to look.
     */
    private static void slowProbe(History h, LockHolds holds, Op op, int i, int c, String key, long markerTime,
                                  Anomalies anomalies) {
        long after = op.longField("leak_after_ms", -1);
        if (after < 0 || c < 0) {
            return;
        }
        Op done = h.ops().get(c);
        long wait = Math.max(0, done.time() - op.time());
        if (wait <= after * 1_000_000L) {
            return;
        }
        for (Hold x : holds.holds(key)) {
            if (x.process() != op.process() && x.possible().overlaps(i, c + 1L)) {
                return;
            }
        }
        anomalies.add(new Anomaly(AnomalyKind.LEAKED_LOCK, Severity.NOTE, key, List.of(done.index(), op.index()),
                op.time(), done.time(), "after the final heal at " + Times.at(markerTime) + ", process "
                        + op.process() + " got " + LockHolds.describe(key) + " only after " + Times.span(wait)
                        + ", more than the run's " + after + " ms acquire timeout, although no process held it:"
                        + " a lock kept by nobody until its lease ran out", Map.of("wait_ns", wait)));
    }

    /** Whether {@code process} certainly held {@code key} at position {@code p}. */
    private static boolean heldBy(LockHolds holds, String key, int process, long p) {
        for (Hold x : holds.holds(key)) {
            if (x.process() == process && x.isCertain() && x.certain().contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** Position of the last ok inspection, or -1. */
    private static int inspectionAt(History h) {
        int at = -1;
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            if (op.f() == Fn.INSPECT && op.type() == OpType.OK) {
                at = i;
            }
        }
        return at;
    }

    /**
     * The inspection's {@code diverged} nodes (each server read on its own), one anomaly per key and set of servers
     * that had them: a lock node on some servers only is their replicas disagreeing, which no holder caused.
     */
    private static long diverged(Op inspection, Anomalies anomalies) {
        Map<String, List<Map<?, ?>>> groups = new LinkedHashMap<>();
        for (Object o : inspection.listField("diverged")) {
            if (o instanceof Map<?, ?> node) {
                groups.computeIfAbsent(node.get("key") + " " + node.get("on") + " " + node.get("missing_on"),
                        k -> new java.util.ArrayList<>()).add(node);
            }
        }
        long at = inspection.time();
        for (List<Map<?, ?>> nodes : groups.values()) {
            Map<?, ?> first = nodes.get(0);
            String key = String.valueOf(first.get("key"));
            List<String> paths = nodes.stream().map(n -> String.valueOf(n.get("node"))).toList();
            String on = servers(first.get("on"));
            String missing = servers(first.get("missing_on"));
            long owner = first.get("owner") instanceof Number n ? n.longValue() : 0;
            anomalies.add(Anomaly.of(AnomalyKind.SERVERS_DIVERGED, key, List.of(inspection.index()), at, at,
                    nodes.size() + " node(s) under " + key + " were on " + on + " but not on " + missing
                            + " at the final inspection, each server read on its own after it synced with the leader:"
                            + " the servers' trees diverged (e.g. " + paths.get(0)
                            + (owner == 0 ? "" : ", owner " + MutualExclusionChecker.hex(owner)) + ")",
                    Anomaly.details("nodes", paths, "on", first.get("on"), "missing_on", first.get("missing_on"))));
        }
        return groups.values().stream().mapToLong(List::size).sum();
    }

    /** "server 3" or "servers 1, 2, 4" from a list of server numbers. */
    private static String servers(Object numbers) {
        List<String> s = numbers instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of("?");
        return (s.size() == 1 ? "server " : "servers ") + String.join(", ", s);
    }

    private static long inspect(History h, int p, LockHolds holds, Anomalies anomalies) {
        if (p < 0) {
            return 0;
        }
        Op inspection = h.get(p);
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
                if (x.grant().session() != 0 && x.possible().contains(p)) {
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
            if (owner == 0) {
                why = "it has no owner session: a persistent node, which no session's end removes";
            } else if (inspection.field("sessions") != null && !open.contains(owner)) {
                why = "its owner session " + MutualExclusionChecker.hex(owner) + " is closed";
            } else if (!holding.getOrDefault(key, Set.of()).contains(owner)) {
                why = "its owner session " + MutualExclusionChecker.hex(owner) + " does not hold " + LockHolds.describe(key);
            } else {
                continue;
            }
            orphans++;
            anomalies.add(Anomaly.of(AnomalyKind.ORPHAN_NODE, key, List.of(inspection.index()),
                    at, at, "lock node " + path + " was still present at the final inspection but " + why,
                    Anomaly.details("node", path, "owner", owner)));
        }
        return orphans;
    }
}
