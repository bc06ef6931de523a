package io.lockchaos.checker.linear;

import io.lockchaos.checker.Hold;
import io.lockchaos.history.Fn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Lock models: mutex (free/held), owner-aware mutex, reentrant mutex, semaphore with N permits, read/write lock.
 * Every hold is identified by the index of the acquire that created it, so a release by the lock service itself
 * ({@link LinOp#implicitRelease()}, an expired session) ends exactly that hold, with everything nested in it, and is a
 * no-op when that hold is not held (already released, or not yet granted): an expiry of one session never frees
 * another's lock.
 */
final class LockModels {
    private LockModels() {
    }

    private static final Set<Fn> FNS = Set.of(Fn.ACQUIRE, Fn.RELEASE);

    /**
     * Drops indeterminate acquires whose process has no real release after them, with the implied releases of their
     * holds. In owner-aware models a hold only ever makes other processes' ops illegal, and the dropped acquire's
     * process does nothing after it that could need it, so a linearization that contains it stays legal without it.
     */
    static List<LinOp> withoutNeverReleased(List<LinOp> ops) {
        java.util.Map<Integer, Long> lastRelease = new java.util.HashMap<>();
        for (LinOp op : ops) {
            if (op.f() == Fn.RELEASE && !op.implicitRelease()) {
                lastRelease.merge(op.process(), op.returnTime() == Long.MAX_VALUE ? op.invokeTime() : op.returnTime(),
                        Math::max);
            }
        }
        Set<Long> dropped = new HashSet<>();
        for (LinOp op : ops) {
            if (op.f() == Fn.ACQUIRE && !op.required()
                    && lastRelease.getOrDefault(op.process(), Long.MIN_VALUE) < op.invokeTime()) {
                dropped.add(op.index());
            }
        }
        return without(ops, dropped);
    }

    /**
     * Drops indeterminate acquires after whose invocation no process releases anything, with the implied releases of
     * their holds: for models where anyone may return a lease, a crashed acquire's lease may be the one another
     * process's later release returned, so only an acquire that no release can follow is never needed.
     */
    static List<LinOp> withoutUnreturnable(List<LinOp> ops) {
        long lastRelease = Long.MIN_VALUE;
        for (LinOp op : ops) {
            if (op.f() == Fn.RELEASE && !op.implicitRelease()) {
                lastRelease = Math.max(lastRelease, op.returnTime());
            }
        }
        Set<Long> dropped = new HashSet<>();
        for (LinOp op : ops) {
            if (op.f() == Fn.ACQUIRE && !op.required() && lastRelease < op.invokeTime()) {
                dropped.add(op.index());
            }
        }
        return without(ops, dropped);
    }

    private static List<LinOp> without(List<LinOp> ops, Set<Long> dropped) {
        if (dropped.isEmpty()) {
            return ops;
        }
        List<LinOp> out = new ArrayList<>(ops.size());
        for (LinOp op : ops) {
            boolean drop = op.f() == Fn.ACQUIRE ? dropped.contains(op.index())
                    : op.implicitRelease() && dropped.contains(op.releasesHold());
            if (!drop) {
                out.add(op);
            }
        }
        return out;
    }

    /** Free (-1) or the hold that holds it; anyone may release a held lock. */
    static final class Mutex implements Model<Long> {
        @Override
        public List<LinOp> prune(List<LinOp> ops) {
            return withoutUnreturnable(ops);
        }

        @Override
        public String name() {
            return "mutex";
        }

        @Override
        public Set<Fn> fns() {
            return FNS;
        }

        @Override
        public Long init() {
            return -1L;
        }

        @Override
        public Long step(Long hold, LinOp op) {
            if (op.implicitRelease()) {
                return hold == op.releasesHold() ? -1L : hold;
            }
            if (op.f() == Fn.ACQUIRE) {
                return hold >= 0 ? null : op.hold();
            }
            return hold >= 0 ? -1L : null;
        }

        @Override
        public String describe(Long hold) {
            return hold < 0 ? "free" : hold == LinOp.ANONYMOUS ? "held" : "held (granted by op " + hold + ")";
        }
    }

    /** Who holds it (-1: nobody), how often (> 1 only when reentrant), and the hold (acquire index) it is. */
    record Owned(int owner, int count, long hold) {
        static final Owned FREE = new Owned(-1, 0, -1);
    }

    /** A mutex with an owner; with {@code reentrant}, the owner may acquire again and releases as often. */
    static final class OwnerMutex implements Model<Owned> {
        @Override
        public List<LinOp> prune(List<LinOp> ops) {
            return withoutNeverReleased(ops);
        }

        private final boolean reentrant;

        OwnerMutex(boolean reentrant) {
            this.reentrant = reentrant;
        }

        @Override
        public String name() {
            return reentrant ? "reentrant-mutex" : "owner-mutex";
        }

        @Override
        public Set<Fn> fns() {
            return FNS;
        }

        @Override
        public Owned init() {
            return Owned.FREE;
        }

        @Override
        public Owned step(Owned s, LinOp op) {
            int p = op.process();
            if (op.implicitRelease()) {
                return s.hold() == op.releasesHold() ? Owned.FREE : s;
            }
            if (op.f() == Fn.ACQUIRE) {
                if (s.owner() == -1) {
                    return new Owned(p, 1, op.hold());
                }
                return reentrant && s.owner() == p ? new Owned(p, s.count() + 1, s.hold()) : null;
            }
            if (s.owner() != p) {
                return null;
            }
            return s.count() == 1 ? Owned.FREE : new Owned(p, s.count() - 1, s.hold());
        }

        @Override
        public String describe(Owned s) {
            return s.owner() == -1 ? "free" : "held by " + s.owner() + (s.count() > 1 ? " x" + s.count() : "");
        }
    }

    /** One hold of a semaphore lease or a read lock: its process, its identity, and its reentry count. */
    record Lease(int process, long hold, int count) {
    }

    /** Anonymous leases tie on their hold: the process breaks the tie, so one multiset of leases is one state. */
    private static final Comparator<Lease> BY_HOLD = Comparator.comparingLong(Lease::hold)
            .thenComparingInt(Lease::process);

    private static List<Lease> with(List<Lease> s, Lease l) {
        List<Lease> out = new ArrayList<>(s);
        out.add(l);
        out.sort(BY_HOLD);
        return List.copyOf(out);
    }

    private static List<Lease> without(List<Lease> s, Lease l) {
        List<Lease> out = new ArrayList<>(s);
        out.remove(l);
        return List.copyOf(out);
    }

    /** The newest lease (highest acquire index) of process p, or null: a release gives back the innermost hold. */
    private static Lease newestOf(List<Lease> s, int p) {
        Lease newest = null;
        for (Lease l : s) {
            if (l.process() == p) {
                newest = l;
            }
        }
        return newest;
    }

    private static Lease byHold(List<Lease> s, long hold) {
        for (Lease l : s) {
            if (l.hold() == hold) {
                return l;
            }
        }
        return null;
    }

    /**
     * Up to N leases, each its own hold; a process releases its newest lease, and one that holds none the oldest
     * (as the hold analysis does). A release that names its lease node is not told apart.
     */
    static final class Semaphore implements Model<List<Lease>> {
        @Override
        public List<LinOp> prune(List<LinOp> ops) {
            return withoutUnreturnable(ops);
        }

        private final int permits;

        @Override
        public boolean holdOrderMatters() {
            return true;
        }

        Semaphore(int permits) {
            this.permits = permits;
        }

        @Override
        public String name() {
            return "semaphore:" + permits;
        }

        @Override
        public Set<Fn> fns() {
            return FNS;
        }

        @Override
        public List<Lease> init() {
            return List.of();
        }

        @Override
        public List<Lease> step(List<Lease> s, LinOp op) {
            if (op.implicitRelease()) {
                Lease l = byHold(s, op.releasesHold());
                return l == null ? s : without(s, l);
            }
            if (op.f() == Fn.ACQUIRE) {
                return s.size() >= permits ? null : with(s, new Lease(op.process(), op.hold(), 1));
            }
            // InterProcessSemaphoreV2 lets anyone return a lease: one's own newest, else (as the hold analysis
            // decides) the one whose acquire came first; leases are kept in acquire order
            Lease l = newestOf(s, op.process());
            if (l == null && !s.isEmpty()) {
                l = s.get(0);
            }
            return l == null ? null : without(s, l);
        }

        @Override
        public String describe(List<Lease> s) {
            List<Integer> holders = new ArrayList<>();
            s.forEach(l -> holders.add(l.process()));
            return s.isEmpty() ? "no leases held" : "leases held by " + holders;
        }
    }

    /** A writer (-1: none) with its reentry count and hold, and the read holds (reentrant per process). */
    record Rw(int writer, int writes, long writeHold, List<Lease> readers) {
        static final Rw FREE = new Rw(-1, 0, -1, List.of());
    }

    /** Curator's read/write lock: reentrant per mode, a writer may also take the read lock (downgrade). */
    static final class ReadWrite implements Model<Rw> {
        @Override
        public List<LinOp> prune(List<LinOp> ops) {
            return withoutNeverReleased(ops);
        }

        @Override
        public String name() {
            return "rw";
        }

        @Override
        public Set<Fn> fns() {
            return FNS;
        }

        @Override
        public Rw init() {
            return Rw.FREE;
        }

        @Override
        public Rw step(Rw s, LinOp op) {
            int p = op.process();
            if (op.implicitRelease()) {
                Lease l = byHold(s.readers(), op.releasesHold());
                List<Lease> readers = l == null ? s.readers() : without(s.readers(), l);
                return s.writeHold() == op.releasesHold() ? new Rw(-1, 0, -1, readers)
                        : new Rw(s.writer(), s.writes(), s.writeHold(), readers);
            }
            Hold.Mode mode = Hold.Mode.of(op.input());
            Lease mine = newestOf(s.readers(), p);
            if (op.f() == Fn.ACQUIRE) {
                if (mode == Hold.Mode.READ) {
                    if (s.writer() != -1 && s.writer() != p) {
                        return null;
                    }
                    List<Lease> readers = mine == null ? with(s.readers(), new Lease(p, op.hold(), 1))
                            : with(without(s.readers(), mine), new Lease(p, mine.hold(), mine.count() + 1));
                    return new Rw(s.writer(), s.writes(), s.writeHold(), readers);
                }
                if (s.writer() == p) {
                    return new Rw(p, s.writes() + 1, s.writeHold(), s.readers());
                }
                return s.writer() == -1 && s.readers().isEmpty() ? new Rw(p, 1, op.hold(), List.of()) : null;
            }
            boolean read = mode != Hold.Mode.EXCLUSIVE ? mode == Hold.Mode.READ : s.writer() != p;
            if (read) {
                if (mine == null) {
                    return null;
                }
                List<Lease> readers = mine.count() == 1 ? without(s.readers(), mine)
                        : with(without(s.readers(), mine), new Lease(p, mine.hold(), mine.count() - 1));
                return new Rw(s.writer(), s.writes(), s.writeHold(), readers);
            }
            if (s.writer() != p) {
                return null;
            }
            return s.writes() == 1 ? new Rw(-1, 0, -1, s.readers()) : new Rw(p, s.writes() - 1, s.writeHold(),
                    s.readers());
        }

        @Override
        public String describe(Rw s) {
            String w = s.writer() == -1 ? "no writer" : "writer " + s.writer() + (s.writes() > 1 ? " x" + s.writes() : "");
            List<Integer> readers = new ArrayList<>();
            s.readers().forEach(l -> readers.add(l.process()));
            return w + (readers.isEmpty() ? ", no readers" : ", readers " + readers);
        }
    }
}
