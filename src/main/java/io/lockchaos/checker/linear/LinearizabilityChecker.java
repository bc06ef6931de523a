package io.lockchaos.checker.linear;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checker;
import io.lockchaos.checker.LockHolds;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a history against a model: splits it by key (P-compositionality), runs the WGL search on each part in
 * parallel, and answers valid, invalid (with a counterexample) or unknown (a time or memory bound was hit, with what
 * was explored). Failed ops did not happen and are left out; indeterminate ops may take effect at any point after
 * their invocation, or never; an indeterminate read has no effect and is left out.
 *
 * <p>For lock models the extraction also adds releases by session expiry: a release that failed with {@code
 * not-held} must have been preceded by one (between the grant and that release); a nemesis {@code expire} of the
 * holder's session adds one by the time the expiry completed (required if it completed ok); a {@code state LOST} seen
 * by the holder adds an optional one before the LOST.
 */
public final class LinearizabilityChecker implements Checker {
    private final Model<?> model;
    private final Duration timeLimit;
    private final long maxCachedPerKey;

    public LinearizabilityChecker(Model<?> model, Duration timeLimit, long maxCachedPerKey) {
        this.model = model;
        this.timeLimit = timeLimit;
        this.maxCachedPerKey = maxCachedPerKey;
    }

    /** With the default bounds: 60 s and 2,000,000 cached configurations per key. */
    public LinearizabilityChecker(Model<?> model) {
        this(model, Duration.ofSeconds(60), 2_000_000);
    }

    @Override
    public String name() {
        return "linearizable";
    }

    /** An op before ids are assigned: its key and everything else a LinOp needs. */
    private record Raw(String key, long index, int process, Fn f, Object input, Object output, boolean known,
                       boolean required, long invokeTime, long returnTime, boolean implicit) {
    }

    private record Hold(long grantTime, long session) {
    }

    @Override
    public CheckResult check(History h) {
        Map<String, List<Raw>> parts = partition(h);
        long deadline = System.nanoTime() + timeLimit.toNanos();
        List<String> keys = new ArrayList<>(parts.keySet());
        List<WglSearch.Result<?>> results = keys.parallelStream()
                .map(k -> search(parts.get(k), deadline))
                .collect(java.util.stream.Collectors.toList());
        List<Anomaly> anomalies = new ArrayList<>();
        long explored = 0;
        long ops = 0;
        int illegal = 0;
        String unknown = null;
        for (int i = 0; i < keys.size(); i++) {
            WglSearch.Result<?> r = results.get(i);
            explored += r.explored();
            ops += parts.get(keys.get(i)).size();
            if (r.outcome() == WglSearch.Outcome.ILLEGAL) {
                illegal++;
                Anomaly.addCapped(anomalies, counterexample(keys.get(i), r));
            } else if (r.outcome() == WglSearch.Outcome.BUDGET_EXHAUSTED && unknown == null) {
                unknown = "key " + keys.get(i) + ": " + r.reason();
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("model", model.name());
        stats.put("keys", keys.size());
        stats.put("ops", ops);
        stats.put("configurations_explored", explored);
        stats.put("nonlinearizable_keys", illegal);
        if (illegal == 0 && unknown != null) {
            return CheckResult.unknown(name(), unknown, stats);
        }
        return CheckResult.of(name(), anomalies, stats);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private WglSearch.Result<?> search(List<Raw> raws, long deadline) {
        List<LinOp> all = new ArrayList<>(raws.size());
        for (Raw r : raws) {
            all.add(new LinOp(all.size(), r.index(), r.process(), r.f(), r.input(), r.output(), r.known(),
                    r.required(), r.invokeTime(), r.returnTime(), r.implicit()));
        }
        List<LinOp> pruned = ((Model) model).prune(all);
        List<LinOp> ops = new ArrayList<>(pruned.size());
        for (LinOp op : pruned) {
            ops.add(new LinOp(ops.size(), op.index(), op.process(), op.f(), op.input(), op.output(), op.known(),
                    op.required(), op.invokeTime(), op.returnTime(), op.implicitRelease()));
        }
        return new WglSearch(model, ops, deadline, maxCachedPerKey).run();
    }

    private Map<String, List<Raw>> partition(History h) {
        Map<String, List<Raw>> parts = new TreeMap<>();
        Map<List<Object>, Hold> holding = new HashMap<>();
        Map<List<Object>, Integer> depth = new HashMap<>();
        List<Op> all = h.ops();
        boolean lock = model.isLock();
        for (int i = 0; i < all.size(); i++) {
            Op op = all.get(i);
            if (lock && op.f() == Fn.STATE && "LOST".equals(op.stringField("state"))) {
                expire(parts, holding, depth, op.process(), op.time(), false);
                continue;
            }
            if (lock && op.isNemesis() && op.f() == Fn.EXPIRE && op.type() != OpType.INVOKE
                    && op.longField("session", 0) != 0) {
                expireSession(parts, holding, depth, op.longField("session", 0), op.time(), op.type() == OpType.OK);
                continue;
            }
            if (op.type() != OpType.INVOKE || op.isNemesis() || !model.fns().contains(op.f())) {
                continue;
            }
            OpType outcome = h.outcome(i);
            int c = h.completionOf(i);
            Op done = c < 0 ? null : all.get(c);
            List<String> keys = lock ? LockHolds.keysOf(op) : List.of(String.valueOf(op.key()));
            for (String key : keys) {
                List<Object> pk = List.of(op.process(), key);
                if (outcome == OpType.FAIL) {
                    if (lock && op.f() == Fn.RELEASE && "not-held".equals(done.error()) && holding.containsKey(pk)) {
                        // the lock had gone: an expiry released it between the grant and this release
                        Hold held = holding.remove(pk);
                        depth.remove(pk);
                        add(parts, key, new Raw(key, -1, op.process(), Fn.RELEASE, null, null, true, true,
                                held.grantTime(), done.time(), true));
                    }
                    continue;
                }
                if (outcome == OpType.INFO && op.f() == Fn.READ) {
                    continue; // a read that may not have happened changes nothing
                }
                boolean ok = outcome == OpType.OK;
                add(parts, key, new Raw(key, op.index(), op.process(), op.f(), op.value(), ok ? done.value() : null,
                        ok, ok, op.time(), ok ? done.time() : Long.MAX_VALUE, false));
                if (lock && ok) {
                    track(holding, depth, pk, op.f(), done);
                }
            }
        }
        return parts;
    }

    private static void track(Map<List<Object>, Hold> holding, Map<List<Object>, Integer> depth, List<Object> pk,
                              Fn f, Op done) {
        if (f == Fn.ACQUIRE) {
            int d = depth.merge(pk, 1, Integer::sum);
            if (d == 1) {
                holding.put(pk, new Hold(done.time(), done.longField("session", 0)));
            }
        } else {
            Integer d = depth.get(pk);
            if (d != null && d <= 1) {
                depth.remove(pk);
                holding.remove(pk);
            } else if (d != null) {
                depth.put(pk, d - 1);
            }
        }
    }

    /** Adds expiry releases for what a process holds (process {@code p}), up to time {@code until}. */
    private static void expire(Map<String, List<Raw>> parts, Map<List<Object>, Hold> holding,
                               Map<List<Object>, Integer> depth, int p, long until, boolean required) {
        for (var it = holding.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getKey().get(0).equals(p)) {
                continue;
            }
            String key = (String) e.getKey().get(1);
            add(parts, key, new Raw(key, -1, p, Fn.RELEASE, null, null, true, required, e.getValue().grantTime(),
                    until, true));
            depth.remove(e.getKey());
            it.remove();
        }
    }

    private static void expireSession(Map<String, List<Raw>> parts, Map<List<Object>, Hold> holding,
                                      Map<List<Object>, Integer> depth, long session, long until, boolean required) {
        List<Integer> owners = new ArrayList<>();
        for (var e : holding.entrySet()) {
            if (e.getValue().session() == session) {
                owners.add((Integer) e.getKey().get(0));
            }
        }
        for (int p : owners) {
            expire(parts, holding, depth, p, until, required);
        }
    }

    private static void add(Map<String, List<Raw>> parts, String key, Raw r) {
        parts.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Anomaly counterexample(String key, WglSearch.Result<?> r) {
        LinOp b = r.blocked();
        String state = ((Model) model).describe(r.stateAtBlock());
        List<Long> prefix = new ArrayList<>();
        for (LinOp op : r.longestPrefix()) {
            prefix.add(op.index());
        }
        List<Long> tail = prefix.size() <= 20 ? prefix : prefix.subList(prefix.size() - 20, prefix.size());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("model", model.name());
        details.put("prefix_length", (long) prefix.size());
        details.put("prefix_tail", List.copyOf(tail));
        details.put("blocked_op", b == null ? -1L : b.index());
        details.put("state", state);
        details.put("configurations_explored", r.explored());
        String what = b == null ? "no op"
                : (b.index() < 0 ? "an expiry release" : "op " + b.index()) + " (process " + b.process() + " "
                + b.f().wireName() + ")";
        return Anomaly.of(AnomalyKind.NONLINEARIZABLE, key, b == null || b.index() < 0 ? List.of() : List.of(b.index()),
                b == null ? 0 : b.invokeTime(), b == null ? 0 : b.returnTime(),
                "no order of " + key + "'s ops explains the history under model " + model.name() + ": the longest"
                        + " linearizable prefix has " + prefix.size() + " ops, after which " + what
                        + " cannot take effect in state '" + state + "'", details);
    }
}
