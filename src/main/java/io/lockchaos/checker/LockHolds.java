package io.lockchaos.checker;

import io.lockchaos.api.LockContext;
import io.lockchaos.history.EdnValues;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who held which lock when: the one analysis of holds that the dedicated checkers, the linearizability checker and
 * the reports share. Computed once per history and recipe ({@link #of}) in one pass over the history in position
 * order, each fact registered at the position where it happened: a grant at its ok completion, a release at its
 * invocation, a retirement at the info completion, a session loss at its {@code state} event or nemesis completion.
 *
 * <p>The semantics, in Jepsen's terms (see {@link Hold} for the windows):
 * <ul>
 *   <li>An op without {@code key} acts on one unnamed lock ({@link #DEFAULT_KEY}): Jepsen's and Knossos' lock histories
 *       have no key. An acquire or release whose value names {@code keys} (a multi-lock) acts on each of them.
 *   <li>ok: it happened; fail: it did not; info (or no completion before the history ends): it may have happened, at
 *       any time after its invocation, and its process is retired.
 *   <li>A release gives back the releasing process's hold (the lease it names, else the innermost of its mode); where
 *       the recipe lets anyone release, a release by a non-holder gives back the held one whose acquire came first. A release
 *       that fails with {@code not-held} ends the hold as lost; any other failed release changes nothing.
 *   <li>A process's info completion retires it: each hold it still had stops being certain there and stays possible.
 *   <li>A {@code REVOKED} state ({@link LockContext#revoked}: the library took the lock from the
 *       process and told it) ends each hold the process has, certainly and possibly, at that state; one that comes
 *       when the process holds nothing ends nothing.
 * </ul>
 *
 * <p>It also derives the releases the lock service must or may have made by itself ({@link #impliedReleases}): an
 * expiry of session S only ever releases holds granted on S before the expiry was seen, never another session's.
 */
public final class LockHolds {
    /** The error a release completes with when the lock it releases was no longer held. */
    public static final String NOT_HELD = "not-held";
    /** The key of ops that name none: a history without keys is one lock. */
    public static final String DEFAULT_KEY = "";

    private final Map<String, List<Hold>> byKey;
    private final List<Reacquire> reacquires;
    private final List<StrayRelease> strayReleases;
    private final Map<Integer, List<StateEvent>> states;
    private final Map<Long, Long> sessionEnded;
    private final Map<Long, Long> sessionAlive;
    private final List<ImpliedRelease> implied;
    private final int indeterminateAcquires;
    private final int lockOps;
    private final int upgrades;
    private final Map<Integer, List<String>> resolvedKeys;

    /** A re-acquire by a process that certainly held the key (in a mode that makes it a re-entry) when it invoked it. */
    public record Reacquire(int process, String key, long invokeIndex, long position, long time, OpType outcome,
                            long completionIndex) {
    }

    /** A release by a process that held nothing on the key it could give back; positions of invocation, completion. */
    public record StrayRelease(int process, String key, long invokeIndex, long position, long completionPosition,
                               long time, OpType outcome) {
    }

    /** A connection-state event seen by a process, at a position. */
    public record StateEvent(long index, long position, long time, String state, long session) {
    }

    /** Why the lock service released a hold by itself. */
    public enum Cause {
        /** A release failed with not-held: the hold was gone before that release completed (required). */
        NOT_HELD,
        /** A nemesis expired the hold's session (required when the expiry completed ok, else optional). */
        SESSION_EXPIRED,
        /** The holder was told LOST: the server may have ended the session then or later, or not at all (optional). */
        LOST,
        /**
         * The holder was told SUSPENDED and the history never shows that session reconnect: it may have expired
         * (optional). A RECONNECTED on the same session proves it survived and takes these back.
         */
        SUSPENDED,
        /** The holder was retired: its client and session may have been closed (optional). */
        RETIRED
    }

    /**
     * A release by the lock service itself of one hold, which a linearization must place in {@code [from, until)} when
     * {@code required}, and may place there or leave out when not. Positions as in {@link Hold.Window}; {@code until}
     * is {@link Hold#OPEN} for none. One is derived for every hold the lost session may have stood for, nested ones
     * included: after an earlier loss a nested re-acquire may be the hold that really holds the lock.
     */
    public record ImpliedRelease(String key, int process, long holdIndex, long from, long until, boolean required,
                                 Cause cause) {
    }

    private LockHolds(Builder b) {
        for (List<Hold> l : b.byKey.values()) {
            l.sort(Comparator.comparingLong(Hold::acquireIndex));
        }
        this.byKey = b.byKey;
        this.reacquires = List.copyOf(b.reacquires);
        this.strayReleases = List.copyOf(b.strays);
        this.states = b.states;
        this.sessionEnded = b.sessionEnded;
        this.sessionAlive = b.sessionAlive;
        this.implied = List.copyOf(b.implied);
        this.indeterminateAcquires = b.indeterminate;
        this.lockOps = b.lockOps;
        this.upgrades = b.upgrades;
        this.resolvedKeys = b.resolvedKeys;
    }

    /** Returns the analysis of {@code h} under {@code recipe}, computing it at most once. */
    public static LockHolds of(History h, Recipe recipe) {
        return h.derived(List.of(LockHolds.class, recipe), x -> new LockHolds(new Builder(x, recipe).run()));
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

    public List<ImpliedRelease> impliedReleases() {
        return implied;
    }

    public int indeterminateAcquires() {
        return indeterminateAcquires;
    }

    /** Client acquire and release invocations seen: 0 means there was nothing to check. */
    public int lockOps() {
        return lockOps;
    }

    /**
     * The lock keys the op at {@code position} acts on, as this analysis resolved them: a release that names a
     * multi-lock by its own key gives back the member keys its acquire took.
     */
    public List<String> keysAt(int position, Op op) {
        List<String> r = resolvedKeys.get(position);
        return r != null ? r : keysOf(op);
    }

    /** Write acquires by a process that held only the read lock (Curator never grants these; they are no re-entry). */
    public int upgrades() {
        return upgrades;
    }

    /** Returns the last position at which the history shows the session alive (a grant on it, or a connection), or -1. */
    public long sessionLastSeenAlive(long session) {
        return sessionAlive.getOrDefault(session, -1L);
    }

    /** Returns the earliest position at which the history shows the session ended, or {@link Hold#OPEN}. */
    public long sessionEndedAt(long session) {
        return sessionEnded.getOrDefault(session, Hold.OPEN);
    }

    /** The lock key of an op: its key, or {@link #DEFAULT_KEY} when it names none. */
    public static String keyOf(Op op) {
        return op.key() == null ? DEFAULT_KEY : op.key();
    }

    /** The lock keys an acquire or release acts on: its {@code keys} (a multi-lock), else its key. */
    public static List<String> keysOf(Op op) {
        List<?> keys = op.listField("keys");
        if (keys.isEmpty()) {
            return List.of(keyOf(op));
        }
        List<String> out = new ArrayList<>(keys.size());
        for (Object k : keys) {
            String name = EdnValues.nameOf(k);
            String s = name != null ? name : String.valueOf(k);
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** How a key is named to people: the unnamed lock of a keyless history is "the lock". */
    public static String describe(String key) {
        return key == null || key.isEmpty() ? "the lock" : key;
    }

    static Hold.Grant grantOf(Op ok) {
        if (!(ok.value() instanceof Map)) {
            return Hold.Grant.NONE;
        }
        return new Hold.Grant(ok.stringField("node"), ok.longField("token", -1), ok.longField("session", 0),
                ok.longField("owner", 0), ok.longField("seq", -1), ok.boolField("node_gone", false),
                ok.longField("parent_czxid", -1));
    }

    /** A hold while the pass is still running; becomes a {@link Hold}. */
    private static final class Open {
        final int process;
        final String key;
        /** The key the acquire itself named: a multi-lock's own name, released by a release naming it. */
        final String lockKey;
        final Hold.Mode mode;
        final long acquireIndex;
        final long acquirePosition;
        final int depth;
        final boolean queued;
        long grantIndex = -1;
        long grantPosition = -1;
        Hold.Grant grant = Hold.Grant.NONE;

        Open(int process, String key, String lockKey, Hold.Mode mode, long acquireIndex, long acquirePosition,
             int depth, boolean queued) {
            this.process = process;
            this.key = key;
            this.lockKey = lockKey;
            this.mode = mode;
            this.acquireIndex = acquireIndex;
            this.acquirePosition = acquirePosition;
            this.depth = depth;
            this.queued = queued;
        }
    }

    /**
     * The single pass. Over a whole history it looks ahead to each invocation's outcome; fed live ({@link Live}) it
     * cannot, so there a release counts as done from its invocation (and is undone if it fails), a grant is known
     * only at its ok, and nothing is kept that only the final analysis needs.
     */
    private static final class Builder {
        final History h;
        final boolean live;
        /** Live: each process's acquire in flight (one hold per key) and release in flight (its targets). */
        final Map<Integer, List<Open>> liveAcquires = new HashMap<>();
        final Map<Integer, List<Open>> liveReleases = new HashMap<>();
        final List<Op> ops;
        final Recipe recipe;
        final Map<String, List<Hold>> byKey = new TreeMap<>();
        final List<Reacquire> reacquires = new ArrayList<>();
        final List<StrayRelease> strays = new ArrayList<>();
        final Map<Integer, List<StateEvent>> states = new HashMap<>();
        final Map<Long, Long> sessionEnded = new HashMap<>();
        final Map<Long, Long> sessionAlive = new HashMap<>();
        final List<ImpliedRelease> implied = new ArrayList<>();
        /** Granted holds by key, then process, innermost last. */
        final Map<String, Map<Integer, Deque<Open>>> held = new LinkedHashMap<>();
        /** Grants waiting for the position of their ok completion. */
        final Map<Integer, List<Open>> grantsAt = new HashMap<>();
        /** Indeterminate acquires by process, for the release implied by the retirement they cause. */
        final Map<Integer, List<Open>> indeterminateBy = new HashMap<>();
        /** Releases implied by SUSPENDED not yet followed by RECONNECTED or LOST, by (process, session). */
        final Map<List<Object>, List<ImpliedRelease>> suspended = new HashMap<>();
        /** Releases that name a multi-lock by its own key: the member keys they give back. */
        final Map<Integer, List<String>> resolvedKeys = new HashMap<>();
        int indeterminate;
        int lockOps;
        int upgrades;

        Builder(History h, Recipe recipe) {
            this.h = h;
            this.ops = h == null ? null : h.ops();
            this.recipe = recipe;
            this.live = h == null;
        }

        Builder run() {
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                List<Open> granted = grantsAt.remove(i);
                if (granted != null) {
                    for (Open o : granted) {
                        grant(o, i, op);
                    }
                }
                step(i, op);
            }
            for (Map<Integer, Deque<Open>> perProcess : held.values()) {
                for (Deque<Open> d : perProcess.values()) {
                    for (Open o : d) {
                        emit(o, Hold.OPEN, Hold.OPEN, -1, Hold.ReleaseOutcome.NONE);
                    }
                }
            }
            return this;
        }

        void grant(Open o, int i, Op ok) {
            o.grantIndex = ok.index();
            o.grantPosition = i;
            o.grant = grantOf(ok);
            if (!live && o.grant.session() != 0) {
                sessionAlive.put(o.grant.session(), (long) i);
            }
            mine(o.key, o.process).addLast(o);
        }

        /** Live: what a completion settles for the process's acquire or release in flight. */
        void settle(int i, Op op, List<List<Open>> conflicts) {
            List<Open> acquiring = liveAcquires.remove(op.process());
            if (acquiring != null && op.type() == OpType.OK) {
                for (Open o : acquiring) {
                    List<Open> c = conflictsOf(o);
                    if (!c.isEmpty()) {
                        conflicts.add(c);
                    }
                    grant(o, i, op);
                }
            }
            List<Open> releasing = liveReleases.remove(op.process());
            boolean failed = op.type() == OpType.FAIL && !NOT_HELD.equals(op.error());
            for (Open o : releasing == null ? List.<Open>of() : releasing) {
                if (o.process == op.process() && failed) {
                    mine(o.key, o.process).addLast(o); // the release did not happen: it still holds
                } else if (o.process != op.process() && op.type() == OpType.OK) {
                    mine(o.key, o.process).remove(o);
                }
            }
        }

        /**
         * The units certainly holding {@code o}'s key that its grant may not overlap, the grant itself last; empty
         * when it may be granted. Nested grants are no units: their process already holds.
         */
        List<Open> conflictsOf(Open o) {
            if (o.depth > 0) {
                return List.of();
            }
            List<Open> units = new ArrayList<>();
            for (Deque<Open> d : held.getOrDefault(o.key, Map.of()).values()) {
                for (Open x : d) {
                    if (x.depth == 0) {
                        units.add(x);
                    }
                }
            }
            List<Open> c = new ArrayList<>(Exclusion.conflicts(recipe, units, o.process, o.mode, x -> x.process,
                    x -> x.mode));
            if (!c.isEmpty()) {
                c.add(o);
            }
            return c;
        }

        void step(int i, Op op) {
            if (op.f() == Fn.STATE) {
                state(i, op);
            } else if (op.isNemesis()) {
                nemesis(i, op);
            } else if (op.type() == OpType.INVOKE && op.f() == Fn.ACQUIRE) {
                lockOps++;
                for (String k : keysOf(op)) {
                    acquire(i, op, k);
                }
            } else if (op.type() == OpType.INVOKE && op.f() == Fn.RELEASE) {
                lockOps++;
                List<String> keys = releaseKeys(op);
                if (!live && !keys.equals(keysOf(op))) {
                    resolvedKeys.put(i, keys);
                }
                for (String k : keys) {
                    release(i, op, k);
                }
            } else if (op.type() == OpType.INFO) {
                retire(i, op.process());
            }
        }

        /**
         * The keys a release gives back: those it names in {@code keys}; else its key, when the process holds that key
         * itself; else, when its key is the name of a multi-lock the process holds (the acquire named {@code keys}
         * under that key), that lock's member keys; else its key.
         */
        List<String> releaseKeys(Op op) {
            if (!op.listField("keys").isEmpty()) {
                return keysOf(op);
            }
            String name = keyOf(op);
            Deque<Open> direct = held.getOrDefault(name, Map.of()).get(op.process());
            if (direct != null && !direct.isEmpty()) {
                return List.of(name); // it holds the key itself: that is what it releases
            }
            List<String> members = new ArrayList<>();
            for (Map<Integer, Deque<Open>> perProcess : held.values()) {
                for (Open o : perProcess.getOrDefault(op.process(), new ArrayDeque<>())) {
                    if (name.equals(o.lockKey) && !name.equals(o.key) && !members.contains(o.key)) {
                        members.add(o.key);
                    }
                }
            }
            return members.isEmpty() ? List.of(name) : members;
        }

        Deque<Open> mine(String key, int process) {
            return held.computeIfAbsent(key, k -> new LinkedHashMap<>())
                    .computeIfAbsent(process, p -> new ArrayDeque<>());
        }

        void state(int i, Op op) {
            String state = op.stringField("state");
            if (LockContext.REVOKED.equals(state)) {
                revoke(i, op);
            }
            if (live) {
                return; // connection states only annotate the final analysis
            }
            long session = op.longField("session", 0);
            states.computeIfAbsent(op.process(), p -> new ArrayList<>())
                    .add(new StateEvent(op.index(), i, op.time(), state, session));
            if (("CONNECTED".equals(state) || "RECONNECTED".equals(state)) && session != 0) {
                sessionAlive.put(session, (long) i);
            }
            if ("RECONNECTED".equals(state) && session != 0) {
                // that session survived its disconnections: none of them released anything
                List<ImpliedRelease> survived = suspended.remove(List.of(op.process(), session));
                if (survived != null) {
                    implied.removeAll(survived);
                }
                return;
            }
            boolean lost = "LOST".equals(state);
            if (!lost && !"SUSPENDED".equals(state)) {
                return;
            }
            if (lost && session != 0) {
                sessionEnded.merge(session, (long) i, Math::min);
            }
            List<ImpliedRelease> added = new ArrayList<>();
            for (Deque<Open> d : heldBy(op.process())) {
                for (Open o : d) {
                    if (session == 0 || o.grant.session() == 0 || o.grant.session() == session) {
                        added.add(new ImpliedRelease(o.key, o.process, o.acquireIndex, o.grantPosition, Hold.OPEN,
                                false, lost ? Cause.LOST : Cause.SUSPENDED));
                    }
                }
            }
            implied.addAll(added);
            if (lost) {
                suspended.remove(List.of(op.process(), session));
            } else if (session != 0) {
                suspended.computeIfAbsent(List.of(op.process(), session), x -> new ArrayList<>()).addAll(added);
            }
        }

        /** Ends every hold of the process at its {@code REVOKED} state (position {@code i}). */
        void revoke(int i, Op op) {
            for (Deque<Open> d : heldBy(op.process())) {
                for (Open o : d) {
                    emit(o, i, i, op.index(), Hold.ReleaseOutcome.REVOKED);
                }
                d.clear();
            }
        }

        void nemesis(int i, Op op) {
            long session = op.longField("session", 0);
            if (op.f() != Fn.EXPIRE || session == 0 || (op.type() != OpType.OK && op.type() != OpType.INFO)) {
                return;
            }
            boolean ok = op.type() == OpType.OK;
            if (live) {
                return; // implied releases are for the final analysis
            }
            int inv = h.invocationOf(i);
            if (ok) {
                sessionEnded.merge(session, (long) i, Math::min);
            }
            for (Map<Integer, Deque<Open>> perProcess : held.values()) {
                for (Deque<Open> d : perProcess.values()) {
                    for (Open o : d) {
                        if (o.grant.session() == session) {
                            implied.add(new ImpliedRelease(o.key, o.process, o.acquireIndex,
                                    Math.max(o.grantPosition, inv), ok ? i : Hold.OPEN, ok, Cause.SESSION_EXPIRED));
                        }
                    }
                }
            }
        }

        List<Deque<Open>> heldBy(int process) {
            List<Deque<Open>> out = new ArrayList<>();
            for (Map<Integer, Deque<Open>> perProcess : held.values()) {
                Deque<Open> d = perProcess.get(process);
                if (d != null && !d.isEmpty()) {
                    out.add(d);
                }
            }
            return out;
        }

        private static int countMode(Deque<Open> mine, Hold.Mode mode) {
            int n = 0;
            for (Open o : mine) {
                if (o.mode == mode) {
                    n++;
                }
            }
            return n;
        }

        void acquire(int i, Op op, String key) {
            Hold.Mode mode = Hold.Mode.of(op.value());
            Deque<Open> mine = mine(key, op.process());
            if (live) {
                int depth = recipe.reentrant() ? countMode(mine, mode) : 0;
                liveAcquires.computeIfAbsent(op.process(), p -> new ArrayList<>())
                        .add(new Open(op.process(), key, keyOf(op), mode, op.index(), i, depth, mine.isEmpty()));
                return;
            }
            int c = h.completionOf(i);
            OpType outcome = h.outcome(i);
            boolean holdsMode = countMode(mine, mode) > 0;
            boolean upgrade = recipe.readWrite() && mode == Hold.Mode.WRITE && !mine.isEmpty() && !holdsMode;
            if (upgrade) {
                upgrades++;
            } else if (!mine.isEmpty()) {
                reacquires.add(new Reacquire(op.process(), key, op.index(), i, op.time(), outcome,
                        c < 0 ? -1 : ops.get(c).index()));
            }
            if (outcome == OpType.FAIL) {
                return;
            }
            // Read and write locks are separate reentrant locks (Curator's __READ__ and __WRIT__ nodes).
            int depth = recipe.reentrant() ? countMode(mine, mode) : 0;
            Open o = new Open(op.process(), key, keyOf(op), mode, op.index(), i, depth, mine.isEmpty());
            if (outcome == OpType.OK) {
                grantsAt.computeIfAbsent(c, x -> new ArrayList<>()).add(o);
            } else {
                indeterminate++;
                emit(o, Hold.OPEN, Hold.OPEN, -1, Hold.ReleaseOutcome.NONE);
                if (c >= 0) {
                    indeterminateBy.computeIfAbsent(op.process(), p -> new ArrayList<>()).add(o);
                }
            }
        }

        void release(int r, Op op, String key) {
            int d = live ? -1 : h.completionOf(r);
            OpType outcome = live ? null : h.outcome(r);
            Op done = d == -1 ? null : ops.get(d);
            Map<Integer, Deque<Open>> perProcess = held.computeIfAbsent(key, k -> new LinkedHashMap<>());
            Deque<Open> mine = perProcess.get(op.process());
            Open target = null;
            if (mine != null && !mine.isEmpty()) {
                target = pickOwn(mine, op.stringField("node"), Hold.Mode.named(op) ? Hold.Mode.of(op.value()) : null);
            } else if (!recipe.ownerRelease()) {
                target = pickAny(perProcess, op.stringField("node"));
            }
            // A not-held answer to a process that held nothing says nothing about another's hold (Jepsen's etcd test
            // releases at random: most releases are by non-holders and fail so); it is a stray, never a lost lock.
            boolean othersNotHeld = target != null && target.process != op.process() && outcome == OpType.FAIL
                    && NOT_HELD.equals(done.error());
            if (target == null || othersNotHeld) {
                if (!live) {
                    strays.add(new StrayRelease(op.process(), key, op.index(), r, d < 0 ? Hold.OPEN : d, op.time(),
                            outcome));
                }
                return;
            }
            if (live) {
                // The outcome is not known yet. Its own hold: certain no more from here, back if the release fails.
                // Another's (where anyone may release): ended only once the release is seen to succeed.
                if (target.process == op.process()) {
                    perProcess.get(target.process).remove(target);
                }
                liveReleases.computeIfAbsent(op.process(), p -> new ArrayList<>()).add(target);
                return;
            }
            Hold.ReleaseOutcome how;
            if (outcome == OpType.OK) {
                how = Hold.ReleaseOutcome.RELEASED;
            } else if (outcome == OpType.INFO) {
                how = Hold.ReleaseOutcome.INDETERMINATE;
            } else if (NOT_HELD.equals(done.error())) {
                how = Hold.ReleaseOutcome.LOST;
            } else {
                return; // a failed release did not happen: still held
            }
            perProcess.get(target.process).remove(target);
            if (how == Hold.ReleaseOutcome.LOST) {
                // the lock node is gone, and with it every hold of that process and mode it stood for (a reentrant
                // lock's nested holds share its node; a semaphore's leases are nodes of their own)
                implied.add(new ImpliedRelease(key, target.process, target.acquireIndex, target.grantPosition, d, true,
                        Cause.NOT_HELD));
                for (Open o : perProcess.get(target.process)) {
                    if (recipe.reentrant() && o.mode == target.mode) {
                        implied.add(new ImpliedRelease(key, o.process, o.acquireIndex, o.grantPosition, d, true,
                                Cause.NOT_HELD));
                    }
                }
            }
            emit(target, r, how == Hold.ReleaseOutcome.INDETERMINATE ? Hold.OPEN : d, op.index(), how);
        }

        void retire(int i, int process) {
            liveAcquires.remove(process);
            liveReleases.remove(process);
            for (Deque<Open> d : heldBy(process)) {
                if (live) {
                    d.clear();
                    continue;
                }
                for (Open o : d) {
                    emit(o, i, Hold.OPEN, ops.get(i).index(), Hold.ReleaseOutcome.RETIRED);
                    implied.add(new ImpliedRelease(o.key, o.process, o.acquireIndex, i, Hold.OPEN, false,
                            Cause.RETIRED));
                }
                d.clear();
            }
            for (Open o : indeterminateBy.getOrDefault(process, List.of())) {
                implied.add(new ImpliedRelease(o.key, o.process, o.acquireIndex, i, Hold.OPEN, false, Cause.RETIRED));
            }
            indeterminateBy.remove(process);
        }

        /**
         * Emits a hold whose certain window (if granted) ends at position {@code certainUntil} and whose possible
         * window ends at {@code possibleUntil}; {@code endIndex} is the op index of what ended it.
         */
        void emit(Open o, long certainUntil, long possibleUntil, long endIndex, Hold.ReleaseOutcome how) {
            if (live) {
                return;
            }
            Hold.Window certain = o.grantPosition == -1 ? null : window(o.grantPosition, certainUntil);
            Hold.Window possible = window(o.acquirePosition, possibleUntil);
            byKey.computeIfAbsent(o.key, x -> new ArrayList<>()).add(new Hold(o.process, o.key, o.mode,
                    o.acquireIndex, o.grantIndex, certain == null ? -1 : endIndex, certain, possible, o.grant, how,
                    o.depth, o.queued));
        }

        Hold.Window window(long from, long until) {
            return new Hold.Window(from, until, ops.get((int) from).time(),
                    until == Hold.OPEN ? Hold.OPEN : ops.get((int) until).time());
        }
    }

    /**
     * The same analysis fed one op at a time while a run records them, for the live monitor: it says at each grant
     * which certain holders the grant may not overlap, by the rule the mutual exclusion checker applies to the whole
     * history. It cannot look ahead, so a release of one's own hold counts from its invocation and is undone if it
     * fails (the final analysis keeps such a hold certain throughout), and a release of another's hold (where anyone may
     * release) counts from its ok. Thread-safe.
     */
    public static final class Live {
        private final Builder b;
        private int position;

        public Live(Recipe recipe) {
            this.b = new Builder(null, recipe);
        }

        /**
         * A grant the recipe forbade: the lock key, the process granted, and the processes that certainly held the
         * key in a conflicting mode (all units, for a semaphore) when it was granted.
         */
        public record Conflict(String key, int process, List<Integer> holders) {
        }

        /** Registers the op and returns the conflicts its grant made (empty when it is no grant or a lawful one). */
        public synchronized List<Conflict> accept(Op op) {
            int i = position++;
            List<List<Open>> found = new ArrayList<>();
            if (!op.isNemesis() && op.f() != Fn.STATE && op.type() != OpType.INVOKE) {
                b.settle(i, op, found);
            }
            b.step(i, op);
            List<Conflict> out = new ArrayList<>();
            for (List<Open> c : found) {
                Open granted = c.get(c.size() - 1);
                List<Integer> holders = new ArrayList<>();
                for (Open x : c.subList(0, c.size() - 1)) {
                    holders.add(x.process);
                }
                out.add(new Conflict(granted.key, granted.process, holders));
            }
            return out;
        }
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

    /** For recipes that let any process release: the named lease, else the held one whose acquire came first. */
    private static Open pickAny(Map<Integer, Deque<Open>> perProcess, String node) {
        Open oldest = null;
        for (Deque<Open> d : perProcess.values()) {
            for (Open o : d) {
                if (node != null && node.equals(o.grant.node())) {
                    return o;
                }
                if (oldest == null || o.acquirePosition < oldest.acquirePosition) {
                    oldest = o;
                }
            }
        }
        return oldest;
    }
}
