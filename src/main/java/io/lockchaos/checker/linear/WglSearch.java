package io.lockchaos.checker.linear;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The Wing-Gong/Lowe search over one partition. Calls and returns are laid out in time order (calls before returns
 * at the same instant, so windows that only touch count as concurrent, as in the mutual exclusion checker) in a
 * linked list; the search linearizes the first call the model accepts, lifts it out of the list and starts over, and
 * backtracks when it reaches the return of an op it has not linearized. A cache of (linearized set, state) prunes
 * configurations already explored; the set is kept as two independent 64-bit Zobrist fingerprints, so entries are
 * small (a collision, around 2^-100 for a billion entries, could only prune). Ops that are not required (info) may be
 * linearized at any point after their call, or never: the search succeeds once every required op is linearized; one
 * is never linearized where it would leave the state as it is.
 *
 * @param <S> the model's state
 */
final class WglSearch<S> {
    /** What the search concluded. */
    enum Outcome { LINEARIZABLE, ILLEGAL, BUDGET_EXHAUSTED }

    /**
     * The result of a search.
     *
     * @param outcome linearizable, illegal, or unknown because a bound was hit
     * @param explored configurations cached
     * @param longestPrefix the ops of the longest linearization found, in order
     * @param blocked the op whose return was reached without it being linearizable there, or null
     * @param stateAtBlock the model state after the longest prefix
     * @param reason why the budget ran out, or null
     */
    record Result<S>(Outcome outcome, long explored, List<LinOp> longestPrefix, LinOp blocked, S stateAtBlock,
                     String reason) {
    }

    private record Key(long h1, long h2, Object state) {
    }

    private final Model<S> model;
    private final List<LinOp> ops;
    private final long deadlineNanos;
    private final long maxCached;

    WglSearch(Model<S> model, List<LinOp> ops, long deadlineNanos, long maxCached) {
        this.model = model;
        this.ops = ops;
        this.deadlineNanos = deadlineNanos;
        this.maxCached = maxCached;
    }

    /**
     * The ops' calls and returns in time order, as a linked list over event slots 1..m (slot 0 is the head, m + 1 the
     * end): event 2*i is the call of op i, 2*i+1 its return (absent for an op without one).
     */
    private record Layout(int[] ev, int[] next, int[] prev, int[] callSlot, int[] retSlot, int end, int required) {
    }

    private Layout layout() {
        int n = ops.size();
        List<Integer> events = new ArrayList<>(2 * n);
        int required = 0;
        for (LinOp op : ops) {
            events.add(2 * op.id());
            if (op.returnTime() != Long.MAX_VALUE) {
                events.add(2 * op.id() + 1);
            }
            if (op.required()) {
                required++;
            }
        }
        events.sort((a, b) -> {
            long ta = time(a);
            long tb = time(b);
            if (ta != tb) {
                return Long.compare(ta, tb);
            }
            if ((a & 1) != (b & 1)) {
                return (a & 1) - (b & 1); // calls first
            }
            return Integer.compare(a, b);
        });
        int m = events.size();
        int[] ev = new int[m + 1];
        int[] next = new int[m + 2];
        int[] prev = new int[m + 2];
        int[] callSlot = new int[n];
        int[] retSlot = new int[n];
        Arrays.fill(retSlot, -1);
        for (int i = 0; i < m; i++) {
            int e = events.get(i);
            ev[i + 1] = e;
            if ((e & 1) == 0) {
                callSlot[e >> 1] = i + 1;
            } else {
                retSlot[e >> 1] = i + 1;
            }
        }
        for (int i = 0; i <= m; i++) {
            next[i] = i + 1;
            prev[i + 1] = i;
        }
        return new Layout(ev, next, prev, callSlot, retSlot, m + 1, required);
    }

    /** Two independent Zobrist keys per op, from a fixed seed (a search is repeatable). */
    private static long[][] zobrist(int n) {
        SplittableRandom zr = new SplittableRandom(0x5eed);
        long[][] z = new long[2][n];
        for (int i = 0; i < n; i++) {
            z[0][i] = zr.nextLong();
            z[1][i] = zr.nextLong();
        }
        return z;
    }

    /** The first {@code depth} ops linearized. */
    private List<LinOp> prefix(int[] stackOp, int depth) {
        List<LinOp> prefix = new ArrayList<>(depth);
        for (int i = 0; i < depth; i++) {
            prefix.add(ops.get(stackOp[i]));
        }
        return prefix;
    }

    Result<S> run() {
        int n = ops.size();
        Layout l = layout();
        int[] ev = l.ev();
        int[] next = l.next();
        int[] prev = l.prev();
        int[] callSlot = l.callSlot();
        int[] retSlot = l.retSlot();
        final int end = l.end();
        int required = l.required();
        long[][] z = zobrist(n);
        long[] z1 = z[0];
        long[] z2 = z[1];
        Set<Key> cache = new HashSet<>();
        int[] stackOp = new int[n];
        Object[] stackState = new Object[n];
        int depth = 0;
        S state = model.init();
        long h1 = 0;
        long h2 = 0;
        int left = required;
        int bestDepth = -1;
        List<LinOp> bestPrefix = List.of();
        LinOp blocked = null;
        S bestState = state;
        long steps = 0;
        int entry = next[0];
        while (left > 0) {
            if ((++steps & 0xfff) == 0) {
                if (System.nanoTime() > deadlineNanos) {
                    return new Result<>(Outcome.BUDGET_EXHAUSTED, cache.size(), bestPrefix, blocked, bestState,
                            "time limit reached after exploring " + cache.size() + " configurations");
                }
            }
            int e = ev[entry];
            int id = e >> 1;
            if ((e & 1) == 0) {
                LinOp op = ops.get(id);
                S after = model.step(state, op);
                // An optional op that changes nothing is never needed here: leaving it out keeps every choice this
                // would reach, and keeps it for later. Taking it anyway multiplies configurations (expiry releases of
                // holds not held, crashed ops), which is what made crashed histories exhaust the memory bound.
                if (after != null && (op.required() || !after.equals(state))) {
                    long n1 = h1 ^ z1[id];
                    long n2 = h2 ^ z2[id];
                    if (cache.add(new Key(n1, n2, after))) {
                        if (cache.size() > maxCached) {
                            return new Result<>(Outcome.BUDGET_EXHAUSTED, cache.size(), bestPrefix, blocked,
                                    bestState, "memory bound reached: " + maxCached + " configurations cached");
                        }
                        stackOp[depth] = id;
                        stackState[depth] = state;
                        depth++;
                        state = after;
                        h1 = n1;
                        h2 = n2;
                        if (op.required()) {
                            left--;
                        }
                        lift(id, callSlot, retSlot, next, prev);
                        entry = next[0];
                        continue;
                    }
                }
                entry = next[entry];
            } else {
                // the return of an op we have not linearized: this branch is dead
                if (depth > bestDepth) {
                    bestDepth = depth;
                    bestPrefix = prefix(stackOp, depth);
                    blocked = ops.get(id);
                    bestState = state;
                }
                entry = end; // backtrack below
            }
            while (entry == end) {
                // a dead branch, or only optional calls were left ahead and none fit: undo the last choice
                if (depth == 0) {
                    return new Result<>(Outcome.ILLEGAL, cache.size(), bestPrefix, blocked, bestState, null);
                }
                int op = stackOp[--depth];
                state = cast(stackState[depth]);
                h1 ^= z1[op];
                h2 ^= z2[op];
                if (ops.get(op).required()) {
                    left++;
                }
                unlift(op, callSlot, retSlot, next, prev);
                entry = next[callSlot[op]];
            }
        }
        return new Result<>(Outcome.LINEARIZABLE, cache.size(), prefix(stackOp, depth), null, state, null);
    }

    @SuppressWarnings("unchecked")
    private S cast(Object o) {
        return (S) o;
    }

    private long time(int event) {
        LinOp op = ops.get(event >> 1);
        return (event & 1) == 0 ? op.invokeTime() : op.returnTime();
    }

    private static void lift(int id, int[] callSlot, int[] retSlot, int[] next, int[] prev) {
        remove(callSlot[id], next, prev);
        if (retSlot[id] >= 0) {
            remove(retSlot[id], next, prev);
        }
    }

    private static void unlift(int id, int[] callSlot, int[] retSlot, int[] next, int[] prev) {
        if (retSlot[id] >= 0) {
            restore(retSlot[id], next, prev);
        }
        restore(callSlot[id], next, prev);
    }

    private static void remove(int slot, int[] next, int[] prev) {
        next[prev[slot]] = next[slot];
        prev[next[slot]] = prev[slot];
    }

    private static void restore(int slot, int[] next, int[] prev) {
        next[prev[slot]] = slot;
        prev[next[slot]] = slot;
    }
}
