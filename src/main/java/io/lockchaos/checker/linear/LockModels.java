package io.lockchaos.checker.linear;

import io.lockchaos.history.Fn;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Lock models: mutex (free/held), owner-aware mutex, reentrant mutex, semaphore with N permits, read/write lock.
 * A release by session expiry ({@link LinOp#implicitRelease()}) releases everything the process holds and is always
 * legal.
 */
final class LockModels {
    private LockModels() {
    }

    private static final Set<Fn> FNS = Set.of(Fn.ACQUIRE, Fn.RELEASE);

    /**
     * Drops indeterminate acquires whose process has no release (real or by expiry) after them. In owner-aware models
     * a holder only ever makes others' ops illegal, so a linearization that contains such an acquire stays legal
     * without it.
     */
    static List<LinOp> withoutNeverReleased(List<LinOp> ops) {
        java.util.Map<Integer, Long> lastRelease = new java.util.HashMap<>();
        for (LinOp op : ops) {
            if (op.f() == Fn.RELEASE) {
                lastRelease.merge(op.process(), op.returnTime(), Math::max);
            }
        }
        List<LinOp> out = new ArrayList<>(ops.size());
        for (LinOp op : ops) {
            boolean redundant = op.f() == Fn.ACQUIRE && !op.required()
                    && lastRelease.getOrDefault(op.process(), Long.MIN_VALUE) < op.invokeTime();
            if (!redundant) {
                out.add(op);
            }
        }
        return out;
    }

    /** Free or held; anyone may release a held lock. */
    static final class Mutex implements Model<Boolean> {
        @Override
        public String name() {
            return "mutex";
        }

        @Override
        public Set<Fn> fns() {
            return FNS;
        }

        @Override
        public Boolean init() {
            return Boolean.FALSE;
        }

        @Override
        public Boolean step(Boolean held, LinOp op) {
            if (op.implicitRelease()) {
                return Boolean.FALSE; // it tracks no owner, so an expiry frees it whoever holds it
            }
            if (op.f() == Fn.ACQUIRE) {
                return held ? null : Boolean.TRUE;
            }
            return held ? Boolean.FALSE : null;
        }

        @Override
        public String describe(Boolean held) {
            return held ? "held" : "free";
        }
    }

    /** Who holds it (-1: nobody); count > 1 only when reentrant. */
    record Owned(int owner, int count) {
        static final Owned FREE = new Owned(-1, 0);
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
                return s.owner() == p ? Owned.FREE : s;
            }
            if (op.f() == Fn.ACQUIRE) {
                if (s.owner() == -1) {
                    return new Owned(p, 1);
                }
                return reentrant && s.owner() == p ? new Owned(p, s.count() + 1) : null;
            }
            if (s.owner() != p) {
                return null;
            }
            return s.count() == 1 ? Owned.FREE : new Owned(p, s.count() - 1);
        }

        @Override
        public String describe(Owned s) {
            return s.owner() == -1 ? "free" : "held by " + s.owner() + (s.count() > 1 ? " x" + s.count() : "");
        }
    }

    /** Up to N leases; the state is the sorted list of lease holders. */
    static final class Semaphore implements Model<List<Integer>> {
        @Override
        public List<LinOp> prune(List<LinOp> ops) {
            return withoutNeverReleased(ops);
        }

        private final int permits;

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
        public List<Integer> init() {
            return List.of();
        }

        @Override
        public List<Integer> step(List<Integer> s, LinOp op) {
            int p = op.process();
            if (op.implicitRelease()) {
                List<Integer> out = new ArrayList<>(s);
                out.removeIf(x -> x == p);
                return List.copyOf(out);
            }
            if (op.f() == Fn.ACQUIRE) {
                if (s.size() >= permits) {
                    return null;
                }
                List<Integer> out = new ArrayList<>(s);
                int at = Collections.binarySearch(out, p);
                out.add(at < 0 ? -at - 1 : at, p);
                return List.copyOf(out);
            }
            int at = s.indexOf(p);
            if (at < 0) {
                return null;
            }
            List<Integer> out = new ArrayList<>(s);
            out.remove(at);
            return List.copyOf(out);
        }

        @Override
        public String describe(List<Integer> s) {
            return s.isEmpty() ? "no leases held" : "leases held by " + s;
        }
    }

    /** A writer (-1: none) with its reentry count, and the sorted multiset of readers. */
    record Rw(int writer, int writes, List<Integer> readers) {
        static final Rw FREE = new Rw(-1, 0, List.of());
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

        private static boolean isRead(LinOp op) {
            return op.input() instanceof java.util.Map<?, ?> m && "read".equals(m.get("mode"));
        }

        private static boolean names(LinOp op) {
            return op.input() instanceof java.util.Map<?, ?> m && m.get("mode") != null;
        }

        @Override
        public Rw step(Rw s, LinOp op) {
            int p = op.process();
            if (op.implicitRelease()) {
                List<Integer> readers = new ArrayList<>(s.readers());
                readers.removeIf(x -> x == p);
                return s.writer() == p ? new Rw(-1, 0, List.copyOf(readers)) : new Rw(s.writer(), s.writes(),
                        List.copyOf(readers));
            }
            if (op.f() == Fn.ACQUIRE) {
                if (isRead(op)) {
                    if (s.writer() != -1 && s.writer() != p) {
                        return null;
                    }
                    List<Integer> readers = new ArrayList<>(s.readers());
                    int at = Collections.binarySearch(readers, p);
                    readers.add(at < 0 ? -at - 1 : at, p);
                    return new Rw(s.writer(), s.writes(), List.copyOf(readers));
                }
                if (s.writer() == p) {
                    return new Rw(p, s.writes() + 1, s.readers());
                }
                return s.writer() == -1 && s.readers().isEmpty() ? new Rw(p, 1, List.of()) : null;
            }
            boolean read = names(op) ? isRead(op) : s.writer() != p;
            if (read) {
                int at = s.readers().indexOf(p);
                if (at < 0) {
                    return null;
                }
                List<Integer> readers = new ArrayList<>(s.readers());
                readers.remove(at);
                return new Rw(s.writer(), s.writes(), List.copyOf(readers));
            }
            if (s.writer() != p) {
                return null;
            }
            return s.writes() == 1 ? new Rw(-1, 0, s.readers()) : new Rw(p, s.writes() - 1, s.readers());
        }

        @Override
        public String describe(Rw s) {
            String w = s.writer() == -1 ? "no writer" : "writer " + s.writer() + (s.writes() > 1 ? " x" + s.writes() : "");
            return w + (s.readers().isEmpty() ? ", no readers" : ", readers " + s.readers());
        }
    }
}
