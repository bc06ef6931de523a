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
import java.util.TreeSet;

/**
 * Lost updates to a lock-protected set kept outside the lock service. Every add acknowledged (ok) before the final
 * read of its set was invoked must be in that read; each missing one is reported with the other processes whose
 * certain lock holds overlapped it (the likely writers that overwrote it). An element in the read that nobody tried to
 * add is a violation too, and so is an element the read holds more than once (a list, as data in a database is
 * read): each element stands for one intended add, however many times it was tried. Adds concurrent with the final
 * read, and indeterminate adds, may be present or absent. Without a final read of a set that was added to, the answer
 * is unknown.
 */
public final class LostUpdateChecker implements Checker {
    private final Recipe recipe;

    public LostUpdateChecker(Recipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public String name() {
        return "lost-updates";
    }

    /** An add, with the positions of its invocation and completion ({@link Hold#OPEN} for none) and their times. */
    private record Add(Object element, long invokeAt, long doneAt, long invokeTime, long doneTime, long index,
                       int process, boolean acked) {
    }

    /** Every add per set, in history order, and each set's last ok read (and where it was invoked). */
    private record Sets(Map<String, List<Add>> adds, Map<String, Op> finalRead, Map<String, Long> finalReadInvoke) {
    }

    /**
     * A set's judgement: acknowledged adds, those missing from the final read, elements nobody added, and elements the
     * read holds more than once.
     */
    private record Tally(long acked, long lost, long unexpected, long duplicated) {
    }

    @Override
    public CheckResult check(History h) {
        Sets sets = collect(h);
        if (sets.adds().isEmpty()) {
            return CheckResult.nothingToCheck(name(), "no adds to a set", Map.of());
        }
        Anomalies anomalies = new Anomalies();
        long acked = 0;
        long lost = 0;
        long unexpected = 0;
        long duplicated = 0;
        List<String> unread = new ArrayList<>();
        for (Map.Entry<String, List<Add>> e : sets.adds().entrySet()) {
            Op read = sets.finalRead().get(e.getKey());
            if (read == null) {
                unread.add(e.getKey());
                continue;
            }
            Tally t = judge(h, e.getKey(), e.getValue(), read, sets.finalReadInvoke().get(e.getKey()), anomalies);
            acked += t.acked();
            lost += t.lost();
            unexpected += t.unexpected();
            duplicated += t.duplicated();
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("sets", sets.adds().size());
        stats.put("acknowledged_adds", acked);
        stats.put("lost", lost);
        stats.put("unexpected", unexpected);
        stats.put("duplicated", duplicated);
        if (!unread.isEmpty()) {
            stats.put("sets_without_final_read", unread);
            if (anomalies.isEmpty()) {
                return CheckResult.unknown(name(), "no final read of " + unread.get(0)
                        + (unread.size() > 1 ? " and " + (unread.size() - 1) + " other set(s)" : ""), stats);
            }
        }
        return CheckResult.of(name(), anomalies, stats);
    }

    private static Sets collect(History h) {
        Map<String, List<Add>> adds = new LinkedHashMap<>();
        Map<String, Op> finalRead = new HashMap<>();
        Map<String, Long> finalReadInvoke = new HashMap<>();
        List<Op> ops = h.ops();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.type() != OpType.INVOKE || op.isNemesis()) {
                continue;
            }
            String key = String.valueOf(op.key());
            if (op.f() == Fn.ADD) {
                OpType outcome = h.outcome(i);
                if (outcome == OpType.FAIL) {
                    adds.computeIfAbsent(key, k -> new ArrayList<>());
                    continue;
                }
                int c = h.completionOf(i);
                adds.computeIfAbsent(key, k -> new ArrayList<>()).add(new Add(normal(op.value()), i,
                        c < 0 ? Hold.OPEN : c, op.time(), c < 0 ? Hold.OPEN : ops.get(c).time(), op.index(),
                        op.process(), outcome == OpType.OK));
            } else if (op.f() == Fn.READ && h.outcome(i) == OpType.OK) {
                Op done = ops.get(h.completionOf(i));
                if (done.value() instanceof java.util.Collection<?>) { // a list, or a set read from EDN
                    finalRead.put(key, done);
                    finalReadInvoke.put(key, (long) i);
                }
            }
        }
        return new Sets(adds, finalRead, finalReadInvoke);
    }

    /**
     * Judges one set against its final read: an acknowledged add completed before the read was invoked must be in it
     * (else lost, with the holders that overlapped it), and the read may hold only elements someone tried to add.
     */
    private Tally judge(History h, String key, List<Add> adds, Op read, long readInvoke, Anomalies anomalies) {
        Map<Object, Integer> times = new LinkedHashMap<>();
        for (Object o : (java.util.Collection<?>) read.value()) {
            times.merge(normal(o), 1, Integer::sum);
        }
        Set<Object> seen = times.keySet();
        Set<Object> attempted = new HashSet<>();
        long acked = 0;
        long lost = 0;
        for (Add a : adds) {
            attempted.add(a.element());
            if (!a.acked()) {
                continue;
            }
            acked++;
            if (a.doneAt() < readInvoke && !seen.contains(a.element())) {
                lost++;
                List<Integer> overlapping = overlappingHolders(h, a);
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("element", a.element());
                details.put("process", (long) a.process());
                details.put("overlapping_holders", overlapping);
                anomalies.add(Anomaly.of(AnomalyKind.LOST_UPDATE, key,
                        List.of(a.index(), read.index()), a.invokeTime(), a.doneTime(),
                        "process " + a.process() + "'s add of " + a.element() + " to " + key
                                + " was acknowledged at " + Times.at(a.doneTime()) + " but is missing from the final"
                                + " read" + (overlapping.isEmpty() ? ""
                                : "; processes " + overlapping + " held a lock during it"), details));
            }
        }
        TreeSet<String> extra = new TreeSet<>();
        for (Object o : seen) {
            if (!attempted.contains(o)) {
                extra.add(String.valueOf(o));
            }
        }
        if (!extra.isEmpty()) {
            anomalies.add(Anomaly.of(AnomalyKind.UNEXPECTED_ELEMENT, key, List.of(read.index()), read.time(),
                    read.time(), "the final read of " + key + " contains " + extra.size()
                            + " element(s) nobody tried to add, for example " + extra.first(),
                    Map.of("elements", List.copyOf(extra))));
        }
        long duplicated = 0;
        for (Map.Entry<Object, Integer> e : times.entrySet()) {
            if (e.getValue() > 1 && attempted.contains(e.getKey())) {
                duplicated++;
                duplicate(key, e.getKey(), e.getValue(), adds, read, anomalies);
            }
        }
        return new Tally(acked, lost, extra.size(), duplicated);
    }

    /** An element the final read holds {@code times} times, with every add of it (a retry's and the first). */
    private static void duplicate(String key, Object element, int times, List<Add> adds, Op read,
                                  Anomalies anomalies) {
        List<Long> ops = new ArrayList<>();
        List<Long> processes = new ArrayList<>();
        long from = read.time();
        for (Add a : adds) {
            if (a.element().equals(element)) {
                ops.add(a.index());
                processes.add((long) a.process());
                from = Math.min(from, a.invokeTime());
            }
        }
        ops.add(read.index());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("element", element);
        details.put("times", (long) times);
        details.put("adders", processes);
        anomalies.add(Anomaly.of(AnomalyKind.DUPLICATED_UPDATE, key, ops, from, read.time(), "the final read of "
                + key + " holds " + element + " " + times + " times: one intended add, tried by processes "
                + processes + ", was applied more than once", details));
    }

    /** Processes other than the adder whose certain holds (on any key) overlapped the add. */
    private List<Integer> overlappingHolders(History h, Add a) {
        TreeSet<Integer> out = new TreeSet<>();
        for (List<Hold> list : LockHolds.of(h, recipe).byKey().values()) {
            for (Hold x : list) {
                // a transaction's add (a lock that keeps its data) is its holder's own
                if (x.isCertain() && x.process() != Op.holderOf(a.process())
                        && x.certain().overlaps(a.invokeAt(), a.doneAt())) {
                    out.add(x.process());
                }
            }
        }
        return List.copyOf(out);
    }

    /** Numbers compare by value whatever their boxed type. */
    private static Object normal(Object o) {
        if (o instanceof Integer || o instanceof Short || o instanceof Byte) {
            return ((Number) o).longValue();
        }
        return o;
    }
}
