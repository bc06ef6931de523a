package io.lockchaos.checker.linear;

import io.lockchaos.api.Promises;
import io.lockchaos.checker.Anomalies;
import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checker;
import io.lockchaos.checker.Hold;
import io.lockchaos.checker.LockHolds;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a history against a model: splits it by key (P-compositionality), runs the WGL search on each part in
 * parallel, and answers valid, invalid (with a counterexample) or unknown (a time or memory bound was hit, with what
 * was explored). Failed ops did not happen and are left out; indeterminate ops may take effect at any point after
 * their invocation, or never; an indeterminate read has no effect and is left out. Real-time order is the order of
 * the history (position), never its clock times.
 *
 * <p>Under {@link Expiry#NONE} (Knossos' reading, the default) that is all: no error code or event implies anything.
 * Under {@link Expiry#EVIDENCE}, for lock models, the releases the lock service made by itself come from the one hold
 * analysis ({@link LockHolds#impliedReleases()}): each ends one hold, at a point in its window, and only that hold. A
 * holder's own {@code not-held} release requires one between the grant and that release's completion; an ok nemesis
 * {@code expire} of the holder's session requires one by the expiry's completion; a {@code state LOST}, an expiry
 * whose outcome is unknown, and the retirement of the holder each allow one from then on.
 */
public final class LinearizabilityChecker implements Checker {
    private final Model<?> model;
    private final Expiry expiry;
    private final Duration timeLimit;
    private final long maxCachedPerKey;

    public LinearizabilityChecker(Model<?> model, Expiry expiry, Duration timeLimit, long maxCachedPerKey) {
        this.model = model;
        this.expiry = expiry;
        this.timeLimit = timeLimit;
        this.maxCachedPerKey = maxCachedPerKey;
    }

    /** Knossos' reading ({@link Expiry#NONE}) with the given bounds. */
    public LinearizabilityChecker(Model<?> model, Duration timeLimit, long maxCachedPerKey) {
        this(model, Expiry.NONE, timeLimit, maxCachedPerKey);
    }

    /** With the default bounds: 60 s and 2,000,000 cached configurations per key. */
    public LinearizabilityChecker(Model<?> model, Expiry expiry) {
        this(model, expiry, Duration.ofSeconds(60), 2_000_000);
    }

    /** Knossos' reading ({@link Expiry#NONE}) with the default bounds. */
    public LinearizabilityChecker(Model<?> model) {
        this(model, Expiry.NONE);
    }

    @Override
    public String name() {
        return "linearizable";
    }

    /** An op before ids are assigned: its key and everything else a LinOp needs. */
    private record Raw(String key, long index, int process, Fn f, Object input, Object output, boolean known,
                       boolean required, long invokeAt, long returnAt, long releasesHold) {
    }

    @Override
    public CheckResult check(History h) {
        Map<String, List<Raw>> parts = partition(h);
        if (parts.isEmpty()) {
            return CheckResult.nothingToCheck(name(), "no operations the model " + model.name() + " checks ("
                    + model.fns().stream().map(Fn::wireName).sorted().collect(java.util.stream.Collectors.joining(", "))
                    + ")", Map.of("model", model.name()));
        }
        long deadline = System.nanoTime() + timeLimit.toNanos();
        List<String> keys = new ArrayList<>(parts.keySet());
        List<WglSearch.Result<?>> results = keys.parallelStream()
                .map(k -> search(parts.get(k), deadline))
                .collect(java.util.stream.Collectors.toList());
        Anomalies anomalies = new Anomalies();
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
                anomalies.add(counterexample(h, keys.get(i), r));
            } else if (r.outcome() == WglSearch.Outcome.BUDGET_EXHAUSTED && unknown == null) {
                unknown = "key " + keys.get(i) + ": " + r.reason();
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("model", model.name());
        if (model.isLock()) {
            stats.put("expiry", expiry.wireName());
        }
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
        java.util.Set<Long> named = new java.util.HashSet<>();
        for (Raw r : raws) {
            if (r.releasesHold() >= 0) {
                named.add(r.releasesHold());
            }
        }
        boolean allNamed = !named.isEmpty() && model.holdOrderMatters();
        List<LinOp> all = new ArrayList<>(raws.size());
        for (Raw r : raws) {
            long hold = allNamed || named.contains(r.index()) ? r.index() : LinOp.ANONYMOUS;
            all.add(new LinOp(all.size(), r.index(), r.process(), r.f(), r.input(), r.output(), r.known(),
                    r.required(), r.invokeAt(), r.returnAt(), r.releasesHold(), hold));
        }
        List<LinOp> pruned = ((Model) model).prune(all);
        List<LinOp> ops = new ArrayList<>(pruned.size());
        for (LinOp op : pruned) {
            ops.add(op.withId(ops.size()));
        }
        return new WglSearch(model, ops, deadline, maxCachedPerKey).run();
    }

    /**
     * The ops of each key. Points in the history's order are {@code 2 * position}; a release implied from position p
     * on starts at {@code 2p + 1}, just after the op there, so it can never be placed before the grant it undoes.
     */
    private Map<String, List<Raw>> partition(History h) {
        Map<String, List<Raw>> parts = new TreeMap<>();
        List<Op> all = h.ops();
        boolean lock = model.isLock();
        LockHolds holds = lock ? LockHolds.of(h, recipeFor(model)) : null;
        for (int i = 0; i < all.size(); i++) {
            Op op = all.get(i);
            if (op.type() != OpType.INVOKE || op.isNemesis() || !model.fns().contains(op.f())) {
                continue;
            }
            OpType outcome = h.outcome(i);
            if (outcome == OpType.FAIL || outcome == OpType.INFO && op.f() == Fn.READ) {
                continue; // it did not happen, or a read that may not have happened changes nothing
            }
            int c = h.completionOf(i);
            boolean ok = outcome == OpType.OK;
            Object output = ok ? all.get(c).value() : null;
            List<String> keys = lock ? holds.keysAt(i, op) : List.of(LockHolds.keyOf(op));
            for (String key : keys) {
                add(parts, key, new Raw(key, op.index(), op.process(), op.f(), op.value(), output, ok, ok, 2L * i,
                        ok ? 2L * c : Long.MAX_VALUE, -1));
            }
        }
        if (lock && expiry == Expiry.EVIDENCE && !parts.isEmpty()) {
            for (LockHolds.ImpliedRelease r : holds.impliedReleases()) {
                add(parts, r.key(), new Raw(r.key(), -1, r.process(), Fn.RELEASE, null, null, true, r.required(),
                        2 * r.from() + 1, r.until() == Hold.OPEN ? Long.MAX_VALUE : 2 * r.until(),
                        r.holdIndex()));
            }
        }
        return parts;
    }

    /** The recipe whose hold semantics match the model's (ownership of releases, reentrancy, read/write). */
    private static Recipe recipeFor(Model<?> model) {
        String n = model.name();
        if (n.startsWith("semaphore:")) {
            return Recipe.semaphore(Integer.parseInt(n.substring("semaphore:".length())));
        }
        return switch (n) {
            case "mutex" -> Recipe.MUTEX;
            case "owner-mutex" -> new Recipe("owner-mutex", Promises.exclusive().withOwnerOnlyRelease());
            case "rw" -> Recipe.READ_WRITE;
            default -> Recipe.REENTRANT_MUTEX;
        };
    }

    /** The clock time of an order point (see {@link #partition}), for reports. */
    private static long timeAt(History h, long point) {
        return point == Long.MAX_VALUE ? Hold.OPEN : h.get((int) (point / 2)).time();
    }

    private static void add(Map<String, List<Raw>> parts, String key, Raw r) {
        parts.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Anomaly counterexample(History h, String key, WglSearch.Result<?> r) {
        LinOp b = r.blocked();
        String state = ((Model) model).describe(r.stateAtBlock());
        List<Long> prefix = new ArrayList<>();
        for (LinOp op : r.longestPrefix()) {
            prefix.add(op.index());
        }
        List<Long> tail = prefix.size() <= 20 ? prefix : prefix.subList(prefix.size() - 20, prefix.size());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("model", model.name());
        if (model.isLock()) {
            details.put("expiry", expiry.wireName());
        }
        details.put("prefix_length", (long) prefix.size());
        details.put("prefix_tail", List.copyOf(tail));
        details.put("blocked_op", b == null ? -1L : b.index());
        details.put("state", state);
        details.put("configurations_explored", r.explored());
        String what = b == null ? "no op"
                : (b.index() < 0 ? "a release by the lock service" : "op " + b.index()) + " (process " + b.process() + " "
                + b.f().wireName() + ")";
        return Anomaly.of(AnomalyKind.NONLINEARIZABLE, key, b == null || b.index() < 0 ? List.of() : List.of(b.index()),
                b == null ? 0 : timeAt(h, b.invokeTime()), b == null ? 0 : timeAt(h, b.returnTime()),
                "no order of " + (model.isLock() ? LockHolds.describe(key) : key.isEmpty() ? "the register"
                        : key) + "'s ops explains the history under model " + model.name() + ": the longest"
                        + " linearizable prefix has " + prefix.size() + " ops, after which " + what
                        + " cannot take effect in state '" + state + "'", details);
    }
}
