package io.lockchaos.oracle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A second, literal oracle of Jepsen semantics that shares nothing with the checkers: no hold analysis, no implied
 * releases, no pruning, no reader. It takes calls as Jepsen's history defines them (a {@code :fail} is left out by
 * the caller; an {@code :ok} must take effect between its invocation and completion; an {@code :info} or an
 * invocation never completed may take effect at any point after its invocation, or never) and tries every order
 * consistent with that, memoizing only (set of calls taken, state), which changes no answer. Each model's step is
 * written again from its definition: Knossos' {@code mutex}, {@code register} and {@code cas-register}, and the
 * definitions lockchaos documents for its own lock models. Values are {@link Value}s, compared as Clojure compares
 * them, independently of how the reader represents EDN.
 */
final class KnossosOracle {
    private KnossosOracle() {
    }

    /**
     * One call: who made it, what it did, with what, and when it could take effect, as positions in the history.
     *
     * @param mode for rw locks: "read", "write" or null (not named)
     * @param completedAt the position of its ok completion, or -1 when it may take effect at any point or never
     */
    record Call(int process, String f, Value in, Value out, String mode, int invokedAt, int completedAt) {
        boolean required() {
            return completedAt >= 0;
        }
    }

    /** A model: its initial state and step, which returns null when the call cannot take effect. */
    interface Spec {
        Object init();

        Object step(Object state, Call c);
    }

    /** Whether some order of the calls explains the history under {@code model}. */
    static boolean linearizable(String model, List<Call> calls) {
        return new Search(spec(model), calls).run();
    }

    static Spec spec(String model) {
        if (model.startsWith("semaphore:")) {
            return semaphore(Integer.parseInt(model.substring("semaphore:".length())));
        }
        return switch (model) {
            case "mutex" -> MUTEX;
            case "owner-mutex" -> owner(false);
            case "reentrant-mutex" -> owner(true);
            case "rw" -> RW;
            case "register" -> register(false);
            case "cas-register" -> register(true);
            default -> throw new IllegalArgumentException(model);
        };
    }

    /** Knossos' Mutex: locked or not; acquire needs it free, release needs it held, by anyone. */
    static final Spec MUTEX = new Spec() {
        public Object init() {
            return false;
        }

        public Object step(Object s, Call c) {
            boolean locked = (Boolean) s;
            if (c.f().equals("acquire")) {
                return locked ? null : true;
            }
            return locked ? false : null;
        }
    };

    /** Owner and count: only the owner releases; reentrant lets the owner acquire again. State: "owner:count". */
    static Spec owner(boolean reentrant) {
        return new Spec() {
            public Object init() {
                return List.of(-1, 0);
            }

            public Object step(Object s, Call c) {
                @SuppressWarnings("unchecked")
                List<Integer> st = (List<Integer>) s;
                int owner = st.get(0);
                int count = st.get(1);
                if (c.f().equals("acquire")) {
                    if (count == 0) {
                        return List.of(c.process(), 1);
                    }
                    return reentrant && owner == c.process() ? List.of(owner, count + 1) : null;
                }
                if (count == 0 || owner != c.process()) {
                    return null;
                }
                return count == 1 ? List.of(-1, 0) : List.of(owner, count - 1);
            }
        };
    }

    /** N leases; anyone may return one, so only how many are out matters. */
    static Spec semaphore(int permits) {
        return new Spec() {
            public Object init() {
                return 0;
            }

            public Object step(Object s, Call c) {
                int out = (Integer) s;
                if (c.f().equals("acquire")) {
                    return out < permits ? out + 1 : null;
                }
                return out > 0 ? out - 1 : null;
            }
        };
    }

    /**
     * Curator's read/write lock: a writer (with its count) excludes other processes' reads and writes; reads are
     * counted per process and shared; the writer may also read; a reader may not take the write lock. A release names
     * its mode, or releases the write lock when the process is the writer, else a read.
     */
    static final Spec RW = new Spec() {
        public Object init() {
            return List.of(-1, 0, Map.of());
        }

        @SuppressWarnings("unchecked")
        public Object step(Object s, Call c) {
            List<Object> st = (List<Object>) s;
            int writer = (Integer) st.get(0);
            int writes = (Integer) st.get(1);
            Map<Integer, Integer> readers = new TreeMap<>((Map<Integer, Integer>) st.get(2));
            int p = c.process();
            boolean acquire = c.f().equals("acquire");
            String mode = c.mode();
            if (acquire) {
                if ("read".equals(mode)) {
                    if (writes > 0 && writer != p) {
                        return null;
                    }
                    readers.merge(p, 1, Integer::sum);
                    return List.of(writer, writes, Map.copyOf(readers));
                }
                if (writes > 0 && writer == p) {
                    return List.of(p, writes + 1, Map.copyOf(readers));
                }
                return writes == 0 && readers.isEmpty() ? List.of(p, 1, Map.copyOf(readers)) : null;
            }
            boolean read = mode != null ? mode.equals("read") : !(writes > 0 && writer == p);
            if (read) {
                Integer n = readers.get(p);
                if (n == null) {
                    return null;
                }
                if (n == 1) {
                    readers.remove(p);
                } else {
                    readers.put(p, n - 1);
                }
                return List.of(writer, writes, Map.copyOf(readers));
            }
            if (writes == 0 || writer != p) {
                return null;
            }
            return writes == 1 ? List.of(-1, 0, Map.copyOf(readers)) : List.of(p, writes - 1, Map.copyOf(readers));
        }
    };

    /**
     * Knossos' Register and CASRegister: a write sets the value; a cas [cur new] needs cur = value; a read of nil is
     * unknown and always fits, any other read must equal the value. Initially nil.
     */
    static Spec register(boolean cas) {
        return new Spec() {
            public Object init() {
                return Value.NIL;
            }

            public Object step(Object s, Call c) {
                Value v = (Value) s;
                switch (c.f()) {
                    case "write":
                        return c.in();
                    case "cas": {
                        if (!cas || !(c.in() instanceof Value.Seq seq) || seq.items().size() != 2) {
                            return null;
                        }
                        return seq.items().get(0).equals(v) ? seq.items().get(1) : null;
                    }
                    case "read":
                        // a crashed read never completed: its value is unknown, like a read of nil
                        return c.out() == null || c.out() == Value.NIL || c.out().equals(v) ? v : null;
                    default:
                        return null;
                }
            }
        };
    }

    /** Depth-first over every admissible next call, with a memo of dead (taken, state) pairs. */
    private static final class Search {
        private final Spec spec;
        private final List<Call> calls;
        private final Set<List<Object>> dead = new HashSet<>();
        private final int requiredCount;

        Search(Spec spec, List<Call> calls) {
            this.spec = spec;
            this.calls = calls;
            int n = 0;
            for (Call c : calls) {
                n += c.required() ? 1 : 0;
            }
            this.requiredCount = n;
        }

        boolean run() {
            return go(0L, 0, spec.init());
        }

        private boolean go(long taken, int requiredTaken, Object state) {
            if (requiredTaken == requiredCount) {
                return true;
            }
            List<Object> key = List.of(taken, state);
            if (dead.contains(key)) {
                return false;
            }
            // the first completion still outstanding bounds what may come next
            int horizon = Integer.MAX_VALUE;
            for (int i = 0; i < calls.size(); i++) {
                Call c = calls.get(i);
                if ((taken & (1L << i)) == 0 && c.required()) {
                    horizon = Math.min(horizon, c.completedAt());
                }
            }
            for (int i = 0; i < calls.size(); i++) {
                Call c = calls.get(i);
                if ((taken & (1L << i)) != 0 || c.invokedAt() > horizon) {
                    continue;
                }
                Object next = spec.step(state, c);
                if (next != null && go(taken | (1L << i), requiredTaken + (c.required() ? 1 : 0), next)) {
                    return true;
                }
            }
            dead.add(key);
            return false;
        }
    }

    /** Counts how often each model answered each way, for the test's closing line. */
    static final class Tally {
        private final Map<String, int[]> counts = new HashMap<>();

        synchronized void add(String model, boolean linearizable) {
            counts.computeIfAbsent(model, m -> new int[2])[linearizable ? 0 : 1]++;
        }

        synchronized String summary() {
            List<String> parts = new ArrayList<>();
            new TreeMap<>(counts).forEach((m, c) -> parts.add(m + " " + c[0] + " valid / " + c[1] + " invalid"));
            return String.join(", ", parts);
        }

        synchronized int[] of(String model) {
            return counts.getOrDefault(model, new int[2]);
        }
    }
}
