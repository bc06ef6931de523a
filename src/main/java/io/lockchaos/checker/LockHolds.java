package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who held which lock when: the one analysis of acquire and release ops that the lock checkers share. Computed once
 * per history and recipe ({@link #of}).
 *
 * <p>Conventions it reads: an acquire invocation may carry {@code mode} ({@code read} or {@code write}) and {@code
 * keys} (a multi-lock: the hold applies to each key); an acquire ok carries the grant ({@code node token session owner
 * seq}); a release fails with error {@code not-held} when the lock was no longer held; a release may name the lease
 * {@code node} it gives back. {@code state} ops carry {@code state} and {@code session}; a nemesis {@code expire}
 * names the {@code session} it ended.
 */
public final class LockHolds {
    /** The error a release completes with when the lock it releases was no longer held. */
    public static final String NOT_HELD = "not-held";

    /** Holds by key, in order of acquire invocation. */
    private final Map<String, List<Hold>> byKey;
    /** Re-acquires by a process that certainly held the key when it invoked them. */
    private final List<Reacquire> reacquires;
    /** Releases by a process that held nothing on the key. */
    private final List<StrayRelease> strayReleases;
    /** State events by process. */
    private final Map<Integer, List<StateEvent>> states;
    /** Earliest time the history shows each session to have ended. */
    private final Map<Long, Long> sessionEnded;
    private final int indeterminateAcquires;

    /** A re-acquire attempt and how it ended. */
    public record Reacquire(int process, String key, long invokeIndex, long time, OpType outcome, long completionIndex) {
    }

    /** A release by a process that held nothing on the key at the time. */
    public record StrayRelease(int process, String key, long invokeIndex, long time, OpType outcome) {
    }

    /** A connection-state event seen by a process. */
    public record StateEvent(long index, long time, String state, long session) {
    }

    private LockHolds(Map<String, List<Hold>> byKey, List<Reacquire> reacquires, List<StrayRelease> strayReleases,
                      Map<Integer, List<StateEvent>> states, Map<Long, Long> sessionEnded, int indeterminateAcquires) {
        this.byKey = byKey;
        this.reacquires = reacquires;
        this.strayReleases = strayReleases;
        this.states = states;
        this.sessionEnded = sessionEnded;
        this.indeterminateAcquires = indeterminateAcquires;
    }

    /** Returns the analysis of {@code h} under {@code recipe}, computing it at most once. */
    public static LockHolds of(History h, Recipe recipe) {
        return h.derived(List.of(LockHolds.class, recipe), x -> compute(x, recipe));
    }

    public Map<String, List<Hold>> byKey() {
        return byKey;
    }

    public List<Hold> holds(String key) {
        return byKey.getOrDefault(key, List.of());
    }

    public List<Reacquire> reacquires() {
        return reacquires;
    }

    public List<StrayRelease> strayReleases() {
        return strayReleases;
    }

    public List<StateEvent> states(int process) {
        return states.getOrDefault(process, List.of());
    }

    public int indeterminateAcquires() {
        return indeterminateAcquires;
    }

    /** Returns the earliest time the history shows the session ended, or {@link Hold#OPEN} if it never does. */
    public long sessionEndedAt(long session) {
        return sessionEnded.getOrDefault(session, Hold.OPEN);
    }

    /** A hold while the analysis is still running; becomes a {@link Hold}. */
    private static final class Open {
        final int process;
        final String lockKey;
        final List<String> keys;
        final Hold.Mode mode;
        final long acquireIndex;
        final long possibleStart;
        final int depth;
        long grantIndex = -1;
        long certainStart = Hold.OPEN;
        Hold.Grant grant = Hold.Grant.NONE;

        Open(int process, String lockKey, List<String> keys, Hold.Mode mode, long acquireIndex, long possibleStart,
             int depth) {
            this.process = process;
            this.lockKey = lockKey;
            this.keys = keys;
            this.mode = mode;
            this.acquireIndex = acquireIndex;
            this.possibleStart = possibleStart;
            this.depth = depth;
        }
    }

    private static LockHolds compute(History h, Recipe recipe) {
        Map<String, List<Hold>> byKey = new TreeMap<>();
        List<Reacquire> reacquires = new ArrayList<>();
        List<StrayRelease> strays = new ArrayList<>();
        Map<Integer, List<StateEvent>> states = new HashMap<>();
        Map<Long, Long> sessionEnded = new HashMap<>();
        // Holds currently granted, by lock key then process, innermost last.
        Map<String, Map<Integer, Deque<Open>>> held = new HashMap<>();
        int indeterminate = 0;
        List<Op> ops = h.ops();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.f() == Fn.STATE) {
                long session = op.longField("session", 0);
                String state = op.stringField("state");
                states.computeIfAbsent(op.process(), p -> new ArrayList<>())
                        .add(new StateEvent(op.index(), op.time(), state, session));
                if ("LOST".equals(state) && session != 0) {
                    sessionEnded.merge(session, op.time(), Math::min);
                }
                continue;
            }
            if (op.isNemesis()) {
                if (op.f() == Fn.EXPIRE && op.type() != OpType.INVOKE && op.longField("session", 0) != 0) {
                    sessionEnded.merge(op.longField("session", 0), op.time(), Math::min);
                }
                continue;
            }
            if (op.type() != OpType.INVOKE || op.key() == null) {
                continue;
            }
            int c = h.completionOf(i);
            Op done = c < 0 ? null : ops.get(c);
            OpType outcome = h.outcome(i);
            if (op.f() == Fn.ACQUIRE) {
                Map<Integer, Deque<Open>> perProcess = held.computeIfAbsent(op.key(), k -> new HashMap<>());
                Deque<Open> mine = perProcess.computeIfAbsent(op.process(), p -> new ArrayDeque<>());
                if (!mine.isEmpty()) {
                    reacquires.add(new Reacquire(op.process(), op.key(), op.index(), op.time(), outcome,
                            done == null ? -1 : done.index()));
                }
                if (outcome == OpType.FAIL) {
                    continue;
                }
                Hold.Mode mode = modeOf(op);
                // Read and write locks are separate reentrant locks (Curator's __READ__ and __WRIT__ nodes).
                int depth = recipe.reentrant() ? (int) mine.stream().filter(x -> x.mode == mode).count() : 0;
                Open o = new Open(op.process(), op.key(), keysOf(op), mode, op.index(), op.time(), depth);
                if (outcome == OpType.OK) {
                    o.grantIndex = done.index();
                    o.certainStart = done.time();
                    o.grant = grantOf(done);
                    mine.addLast(o);
                } else {
                    indeterminate++;
                    emit(byKey, o, -1, Hold.OPEN, Hold.OPEN, Hold.ReleaseOutcome.NONE);
                }
            } else if (op.f() == Fn.RELEASE) {
                Map<Integer, Deque<Open>> perProcess = held.computeIfAbsent(op.key(), k -> new HashMap<>());
                Deque<Open> mine = perProcess.get(op.process());
                Open target = null;
                if (mine != null && !mine.isEmpty()) {
                    target = pickOwn(mine, op.stringField("node"), op.field("mode") == null ? null : modeOf(op));
                } else if (!recipe.ownerRelease()) {
                    target = pickAny(perProcess, op.stringField("node"));
                }
                if (target == null) {
                    strays.add(new StrayRelease(op.process(), op.key(), op.index(), op.time(), outcome));
                    continue;
                }
                Hold.ReleaseOutcome how;
                if (outcome == OpType.OK) {
                    how = Hold.ReleaseOutcome.RELEASED;
                } else if (outcome == OpType.INFO) {
                    how = Hold.ReleaseOutcome.INDETERMINATE;
                } else if (NOT_HELD.equals(done.error())) {
                    how = Hold.ReleaseOutcome.LOST;
                } else {
                    continue; // a failed release did not happen: still held
                }
                perProcess.get(target.process).remove(target);
                long possibleEnd = how == Hold.ReleaseOutcome.INDETERMINATE ? Hold.OPEN : done.time();
                emit(byKey, target, op.index(), op.time(), possibleEnd, how);
            }
        }
        for (Map<Integer, Deque<Open>> perProcess : held.values()) {
            for (Deque<Open> d : perProcess.values()) {
                for (Open o : d) {
                    emit(byKey, o, -1, Hold.OPEN, Hold.OPEN, Hold.ReleaseOutcome.NONE);
                }
            }
        }
        for (List<Hold> l : byKey.values()) {
            l.sort(java.util.Comparator.comparingLong(Hold::acquireIndex));
        }
        return new LockHolds(byKey, reacquires, strays, states, sessionEnded, indeterminate);
    }

    /** The process's own hold a release gives back: the named lease, else the innermost of the named mode. */
    private static Open pickOwn(Deque<Open> mine, String node, Hold.Mode mode) {
        Open sameMode = null;
        for (Iterator<Open> it = mine.descendingIterator(); it.hasNext(); ) {
            Open o = it.next();
            if (node != null && node.equals(o.grant.node())) {
                return o;
            }
            if (sameMode == null && o.mode == mode) {
                sameMode = o;
            }
        }
        return sameMode != null ? sameMode : mine.peekLast();
    }

    /** For recipes that let any process release: the named lease, else the oldest grant still held. */
    private static Open pickAny(Map<Integer, Deque<Open>> perProcess, String node) {
        Open oldest = null;
        for (Deque<Open> d : perProcess.values()) {
            for (Open o : d) {
                if (node != null && node.equals(o.grant.node())) {
                    return o;
                }
                if (oldest == null || o.certainStart < oldest.certainStart) {
                    oldest = o;
                }
            }
        }
        return oldest;
    }

    private static void emit(Map<String, List<Hold>> byKey, Open o, long releaseIndex, long certainEnd,
                             long possibleEnd, Hold.ReleaseOutcome how) {
        for (String k : o.keys) {
            byKey.computeIfAbsent(k, x -> new ArrayList<>()).add(new Hold(o.process, k, o.mode, o.acquireIndex,
                    o.grantIndex, releaseIndex, o.certainStart, o.certainStart == Hold.OPEN ? Hold.OPEN : certainEnd,
                    o.possibleStart, possibleEnd, o.grant, how, o.depth));
        }
    }

    /** The lock keys an acquire or release acts on: its {@code keys} (a multi-lock), else its key. */
    public static List<String> keysOf(Op op) {
        List<?> keys = op.listField("keys");
        if (keys.isEmpty()) {
            return List.of(op.key() == null ? "" : op.key());
        }
        List<String> out = new ArrayList<>(keys.size());
        for (Object k : keys) {
            out.add(String.valueOf(k));
        }
        return out;
    }

    private static Hold.Mode modeOf(Op op) {
        String m = op.stringField("mode");
        if ("read".equals(m)) {
            return Hold.Mode.READ;
        }
        if ("write".equals(m)) {
            return Hold.Mode.WRITE;
        }
        return Hold.Mode.EXCLUSIVE;
    }

    static Hold.Grant grantOf(Op ok) {
        if (!(ok.value() instanceof Map)) {
            return Hold.Grant.NONE;
        }
        return new Hold.Grant(ok.stringField("node"), ok.longField("token", -1), ok.longField("session", 0),
                ok.longField("owner", 0), ok.longField("seq", -1));
    }
}
