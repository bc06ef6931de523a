package io.lockchaos.oracle;

import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An independent oracle for small lock histories. It shares no code with the hold analysis, the dedicated checkers
 * or the WGL search: it reads the README's semantics afresh (order by position, keyless ops are one lock, grants at
 * their ok, releases at their invocation, retirement at info, implied releases of one hold each) and decides
 * <ul>
 *   <li>{@link #exclusionViolated}: whether some grant was made while another process certainly held the key in a
 *       conflicting mode (or, for a semaphore, while the permits were all certainly held), by replaying the history
 *       position by position;</li>
 *   <li>{@link #linearizable}: whether some order of the ops (every ok op inside its window, every indeterminate op
 *       anywhere after its invocation or never) is a legal run of the lock, by trying every order exhaustively.</li>
 * </ul>
 */
public final class BruteForceOracle {
    private BruteForceOracle() {
    }

    /** A key's ops above this many are not brute-forced. */
    public static final int MAX_OPS_PER_KEY = 18;

    private static final long INF = Long.MAX_VALUE;

    /** A certain hold while replaying. */
    private static final class Held {
        int process;
        String key;
        String name;
        String mode;
        long acquire;
        int grantAt;
        long session;
    }

    /** A lock op for the search: a window of points, and what it does. */
    record Call(long call, long ret, boolean required, Fn f, int process, String mode, long acquire, long undoes) {
    }

    /** The replay: holds as they are at each position, violations, and the ops and implied releases per key. */
    private static final class Replay {
        final Recipe recipe;
        final List<Op> ops;
        final History h;
        final Map<String, List<Held>> held = new HashMap<>();
        final Map<Integer, List<Held>> grants = new HashMap<>();
        final Map<String, List<Call>> calls = new TreeMap<>();
        /** Implied releases of SUSPENDED states, by "process/session", until that session reconnects. */
        final Map<String, List<Call>> suspendedCalls = new HashMap<>();
        boolean violation;

        Replay(History h, Recipe recipe) {
            this.h = h;
            this.ops = h.ops();
            this.recipe = recipe;
        }

        static String key(Op op) {
            return op.key() == null ? "" : op.key();
        }

        static List<String> keys(Op op) {
            if (op.value() instanceof Map<?, ?> m && m.get("keys") instanceof List<?> l && !l.isEmpty()) {
                List<String> out = new ArrayList<>();
                for (Object o : l) {
                    if (!out.contains(String.valueOf(o))) {
                        out.add(String.valueOf(o));
                    }
                }
                return out;
            }
            return List.of(key(op));
        }

        static String mode(Op op) {
            Object m = op.value() instanceof Map<?, ?> map ? map.get("mode") : null;
            return "read".equals(m) || "write".equals(m) ? (String) m : null;
        }

        List<Held> of(int process) {
            List<Held> out = new ArrayList<>();
            for (List<Held> l : held.values()) {
                for (Held x : l) {
                    if (x.process == process) {
                        out.add(x);
                    }
                }
            }
            return out;
        }

        void run() {
            for (int i = 0; i < ops.size(); i++) {
                for (Held g : grants.getOrDefault(i, List.of())) {
                    g.grantAt = i;
                    checkGrant(g);
                    held.computeIfAbsent(g.key, k -> new ArrayList<>()).add(g);
                }
                Op op = ops.get(i);
                if (op.f() == Fn.STATE) {
                    state(i, op);
                } else if (op.process() == Op.NEMESIS) {
                    nemesis(i, op);
                } else if (op.type() == OpType.INVOKE && op.f() == Fn.ACQUIRE) {
                    acquire(i, op);
                } else if (op.type() == OpType.INVOKE && op.f() == Fn.RELEASE) {
                    release(i, op);
                } else if (op.type() == OpType.INFO) {
                    int p = op.process();
                    for (Held x : of(p)) {
                        implied(x.key, x.acquire, 2L * i + 1, INF, false);
                        held.get(x.key).remove(x);
                    }
                    Op inv = ops.get(h.invocationOf(i));
                    if (inv.f() == Fn.ACQUIRE) {
                        for (String k : keys(inv)) {
                            implied(k, inv.index(), 2L * i + 1, INF, false);
                        }
                    }
                }
            }
        }

        void checkGrant(Held g) {
            List<Held> there = held.getOrDefault(g.key, List.of());
            if (recipe.isSemaphore()) {
                violation |= there.size() + 1 > recipe.capacity();
                return;
            }
            for (Held x : there) {
                if (x.process == g.process) {
                    continue;
                }
                if (recipe.readWrite() && "read".equals(g.mode) && "read".equals(x.mode)) {
                    continue;
                }
                violation = true;
            }
        }

        void state(int i, Op op) {
            Object st = op.value() instanceof Map<?, ?> m ? m.get("state") : null;
            long session = op.value() instanceof Map<?, ?> m && m.get("session") instanceof Number n ? n.longValue()
                    : 0;
            int p = op.process();
            if ("RECONNECTED".equals(st)) {
                List<Call> back = suspendedCalls.remove(p + "/" + session);
                if (back != null && session != 0) {
                    for (Call c : back) {
                        for (List<Call> l : calls.values()) {
                            l.remove(c);
                        }
                    }
                }
                return;
            }
            if (!"LOST".equals(st) && !"SUSPENDED".equals(st)) {
                return;
            }
            List<Call> added = new ArrayList<>();
            for (Held x : of(p)) {
                if (session == 0 || x.session == 0 || x.session == session) {
                    added.add(implied(x.key, x.acquire, 2L * x.grantAt + 1, INF, false));
                }
            }
            if ("SUSPENDED".equals(st)) {
                suspendedCalls.computeIfAbsent(p + "/" + session, k -> new ArrayList<>()).addAll(added);
            } else {
                suspendedCalls.remove(p + "/" + session);
            }
        }

        void nemesis(int i, Op op) {
            long session = op.value() instanceof Map<?, ?> m && m.get("session") instanceof Number n ? n.longValue()
                    : 0;
            if (op.f() != Fn.EXPIRE || session == 0 || !(op.type() == OpType.OK || op.type() == OpType.INFO)) {
                return;
            }
            boolean ok = op.type() == OpType.OK;
            int inv = h.invocationOf(i);
            for (List<Held> l : held.values()) {
                for (Held x : l) {
                    if (x.session == session) {
                        implied(x.key, x.acquire, 2L * Math.max(x.grantAt, inv) + 1, ok ? 2L * i : INF, ok);
                    }
                }
            }
        }

        Call implied(String key, long undoes, long from, long to, boolean required) {
            Call c = new Call(from, to, required, Fn.RELEASE, -1, null, -1, undoes);
            calls.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
            return c;
        }

        void acquire(int i, Op op) {
            int c = h.completionOf(i);
            OpType out = c < 0 ? OpType.INFO : ops.get(c).type();
            if (out == OpType.FAIL) {
                return;
            }
            for (String k : keys(op)) {
                calls.computeIfAbsent(k, x -> new ArrayList<>()).add(new Call(2L * i, out == OpType.OK ? 2L * c : INF,
                        out == OpType.OK, Fn.ACQUIRE, op.process(), mode(op), op.index(), -1));
                if (out != OpType.OK) {
                    continue;
                }
                Held g = new Held();
                g.process = op.process();
                g.key = k;
                g.name = key(op);
                g.mode = mode(op);
                g.acquire = op.index();
                Op ok = ops.get(c);
                g.session = ok.value() instanceof Map<?, ?> m && m.get("session") instanceof Number n
                        ? n.longValue() : 0;
                grants.computeIfAbsent(c, x -> new ArrayList<>()).add(g);
            }
        }

        void release(int i, Op op) {
            int c = h.completionOf(i);
            OpType out = c < 0 ? OpType.INFO : ops.get(c).type();
            boolean notHeld = out == OpType.FAIL && "not-held".equals(ops.get(c).error());
            List<String> ks = keys(op);
            boolean named = op.value() instanceof Map<?, ?> m && m.get("keys") instanceof List<?> l && !l.isEmpty();
            boolean direct = false;
            for (Held x : held.getOrDefault(key(op), List.of())) {
                direct |= x.process == op.process();
            }
            if (!named && !direct) {
                List<String> members = new ArrayList<>();
                for (Held x : of(op.process())) {
                    if (x.name.equals(key(op)) && !x.key.equals(x.name) && !members.contains(x.key)) {
                        members.add(x.key);
                    }
                }
                if (!members.isEmpty()) {
                    ks = members;
                }
            }
            for (String k : ks) {
                if (out != OpType.FAIL) {
                    calls.computeIfAbsent(k, x -> new ArrayList<>()).add(new Call(2L * i,
                            out == OpType.OK ? 2L * c : INF, out == OpType.OK, Fn.RELEASE, op.process(), mode(op), -1,
                            -1));
                }
                Held target = target(k, op);
                if (target == null || out == OpType.FAIL && !notHeld) {
                    continue;
                }
                held.get(k).remove(target);
                if (notHeld) {
                    implied(k, target.acquire, 2L * target.grantAt + 1, 2L * c, true);
                    for (Held x : held.get(k)) {
                        // a reentrant lock's nested holds share the lost node; a semaphore's leases do not
                        if (recipe.reentrant() && x.process == target.process
                                && java.util.Objects.equals(x.mode, target.mode)) {
                            implied(k, x.acquire, 2L * x.grantAt + 1, 2L * c, true);
                        }
                    }
                }
            }
        }

        Held target(String k, Op op) {
            List<Held> there = held.getOrDefault(k, List.of());
            String node = op.value() instanceof Map<?, ?> m && m.get("node") instanceof String s ? s : null;
            String mode = mode(op);
            Held innermost = null;
            Held innermostOfMode = null;
            for (Held x : there) {
                if (x.process != op.process()) {
                    continue;
                }
                innermost = x;
                if (mode != null && mode.equals(x.mode)) {
                    innermostOfMode = x;
                }
            }
            if (innermost != null && node == null) {
                return innermostOfMode != null ? innermostOfMode : innermost;
            }
            if (innermost == null && (recipe.ownerRelease() || there.isEmpty())) {
                return null;
            }
            // named nodes are never used by the generator; any other release takes the hold acquired first
            Held oldest = null;
            for (Held x : there) {
                if (innermost != null && x.process != op.process()) {
                    continue;
                }
                if (oldest == null || x.acquire < oldest.acquire) {
                    oldest = x;
                }
            }
            return oldest;
        }
    }

    /** Whether a grant was made while it conflicted with another process's certain hold. */
    public static boolean exclusionViolated(History h, Recipe recipe) {
        Replay r = new Replay(h, recipe);
        r.run();
        return r.violation;
    }

    /**
     * Whether some order explains the history under the recipe's lock semantics, or null when a key has more than
     * {@link #MAX_OPS_PER_KEY} ops.
     */
    public static Boolean linearizable(History h, Recipe recipe) {
        Replay r = new Replay(h, recipe);
        r.run();
        for (List<Call> key : r.calls.values()) {
            if (key.size() > MAX_OPS_PER_KEY) {
                return null;
            }
        }
        for (List<Call> key : r.calls.values()) {
            if (!new Search(recipe, key).explains()) {
                return false;
            }
        }
        return true;
    }

    /** Every order of one key's ops, depth first, remembering dead (placed set, state) pairs. */
    private static final class Search {
        final Recipe recipe;
        final List<Call> ops;
        final Set<List<Object>> dead = new HashSet<>();

        Search(Recipe recipe, List<Call> ops) {
            this.recipe = recipe;
            this.ops = ops;
        }

        boolean explains() {
            return dfs(0, LockState.initial());
        }

        boolean dfs(int placed, LockState s) {
            boolean done = true;
            for (int i = 0; i < ops.size(); i++) {
                if ((placed & (1 << i)) == 0 && ops.get(i).required()) {
                    done = false;
                }
            }
            if (done) {
                return true;
            }
            List<Object> id = List.of(placed, s);
            if (dead.contains(id)) {
                return false;
            }
            for (int i = 0; i < ops.size(); i++) {
                if ((placed & (1 << i)) != 0 || !mayComeNext(placed, i)) {
                    continue;
                }
                LockState next = s.apply(recipe, ops.get(i));
                if (next != null && dfs(placed | (1 << i), next)) {
                    return true;
                }
            }
            dead.add(id);
            return false;
        }

        /** Op i may come next when no unplaced required op returned before i was called. */
        boolean mayComeNext(int placed, int i) {
            for (int q = 0; q < ops.size(); q++) {
                if (q != i && (placed & (1 << q)) == 0 && ops.get(q).required() && ops.get(q).ret() < ops.get(i).call()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The lock's state, written for this oracle: the holds in grant order as (process, mode, hold id, count). A mutex
     * lets anyone release; a reentrant lock counts per mode; a semaphore counts leases; an implied release ends its
     * one hold or does nothing.
     */
    record LockState(List<List<Object>> holds) {
        static LockState initial() {
            return new LockState(List.of());
        }

        LockState apply(Recipe recipe, Call c) {
            List<List<Object>> hs = new ArrayList<>(holds);
            if (c.undoes() >= 0) {
                hs.removeIf(x -> ((Long) x.get(2)) == c.undoes());
                return new LockState(List.copyOf(hs));
            }
            String mode = c.mode() == null ? "x" : c.mode();
            if (c.f() == Fn.ACQUIRE) {
                int mine = -1;
                for (int i = 0; i < hs.size(); i++) {
                    List<Object> x = hs.get(i);
                    if ((int) x.get(0) == c.process() && x.get(1).equals(mode)) {
                        mine = i;
                    }
                }
                boolean ownWrite = hs.stream().anyMatch(x -> (int) x.get(0) == c.process() && x.get(1).equals("write"));
                boolean othersAny = hs.stream().anyMatch(x -> (int) x.get(0) != c.process());
                boolean othersWrite = hs.stream().anyMatch(x -> (int) x.get(0) != c.process()
                        && x.get(1).equals("write"));
                if (recipe.isSemaphore()) {
                    if (hs.size() >= recipe.capacity()) {
                        return null;
                    }
                } else if (recipe.readWrite()) {
                    if (mine >= 0) {
                        List<Object> x = hs.get(mine);
                        hs.set(mine, List.of(x.get(0), x.get(1), x.get(2), (int) x.get(3) + 1));
                        return new LockState(List.copyOf(hs));
                    }
                    boolean ok = mode.equals("read") ? !othersWrite : !othersAny && !hs.stream()
                            .anyMatch(x -> (int) x.get(0) == c.process());
                    if (!ok && !(mode.equals("read") && ownWrite && !othersWrite)) {
                        return null;
                    }
                } else {
                    if (!hs.isEmpty() && !(recipe.reentrant() && mine >= 0)) {
                        return null;
                    }
                    if (mine >= 0) {
                        List<Object> x = hs.get(mine);
                        hs.set(mine, List.of(x.get(0), x.get(1), x.get(2), (int) x.get(3) + 1));
                        return new LockState(List.copyOf(hs));
                    }
                }
                hs.add(List.of(c.process(), mode, c.acquire(), 1));
                return new LockState(List.copyOf(hs));
            }
            // a release by a process
            int target = -1;
            if (recipe.name().equals("mutex")) {
                target = hs.isEmpty() ? -1 : 0; // anyone may release the one hold
            } else if (recipe.isSemaphore() && hs.stream().noneMatch(x -> (int) x.get(0) == c.process())) {
                // anyone may return a lease: without one of its own, the one whose acquire came first
                for (int i = 0; i < hs.size(); i++) {
                    if (target < 0 || (Long) hs.get(i).get(2) < (Long) hs.get(target).get(2)) {
                        target = i;
                    }
                }
            } else {
                for (int i = 0; i < hs.size(); i++) {
                    List<Object> x = hs.get(i);
                    boolean modeOk = c.mode() == null ? !recipe.readWrite() || true : x.get(1).equals(c.mode());
                    if ((int) x.get(0) == c.process() && modeOk) {
                        target = i; // the newest
                    }
                }
                if (recipe.readWrite() && c.mode() == null && target >= 0) {
                    // unnamed: the write lock if held, else the read lock (the model's rule)
                    for (int i = 0; i < hs.size(); i++) {
                        if ((int) hs.get(i).get(0) == c.process() && hs.get(i).get(1).equals("write")) {
                            target = i;
                        }
                    }
                }
            }
            if (target < 0) {
                return null;
            }
            List<Object> x = hs.get(target);
            if ((int) x.get(3) > 1) {
                hs.set(target, List.of(x.get(0), x.get(1), x.get(2), (int) x.get(3) - 1));
            } else {
                hs.remove(target);
            }
            return new LockState(List.copyOf(hs));
        }
    }

    /** For failure messages: the calls per key as the oracle sees them. */
    public static String describe(History h, Recipe recipe) {
        Replay r = new Replay(h, recipe);
        r.run();
        Map<String, Object> out = new LinkedHashMap<>(r.calls);
        return out.toString();
    }
}
