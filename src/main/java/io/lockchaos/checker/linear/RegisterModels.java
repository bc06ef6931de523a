package io.lockchaos.checker.linear;

import io.lockchaos.history.Fn;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Knossos' read/write register and compare-and-set register, initially nil. A read's output is the value read (a read
 * of nil is a read of an unknown value, consistent with any state, as in Knossos); a write's input is the value
 * written; a cas's input is {@code [old new]} and takes effect when old equals the value. Values compare as Clojure's
 * {@code =} does ({@link io.lockchaos.history.EdnValues}). States are wrapped in Optional so that nil is a value.
 */
final class RegisterModels {
    private RegisterModels() {
    }

    static final class Register implements Model<Optional<Object>> {
        private final boolean cas;

        Register(boolean cas) {
            this.cas = cas;
        }

        @Override
        public String name() {
            return cas ? "cas-register" : "register";
        }

        @Override
        public Set<Fn> fns() {
            return cas ? Set.of(Fn.READ, Fn.WRITE, Fn.CAS) : Set.of(Fn.READ, Fn.WRITE);
        }

        @Override
        public Optional<Object> init() {
            return Optional.empty();
        }

        @Override
        public Optional<Object> step(Optional<Object> s, LinOp op) {
            switch (op.f()) {
                case READ:
                    // Knossos: a read of nil is a read whose value is unknown, consistent with any state
                    if (!op.known() || op.output() == null) {
                        return s;
                    }
                    return Objects.equals(s.orElse(null), op.output()) ? s : null;
                case WRITE:
                    return Optional.ofNullable(op.input());
                case CAS:
                    if (!(op.input() instanceof List<?> l) || l.size() != 2) {
                        return null;
                    }
                    return Objects.equals(s.orElse(null), l.get(0)) ? Optional.ofNullable(l.get(1)) : null;
                default:
                    return null;
            }
        }

        /**
         * Drops indeterminate writes and cas whose new value no read returns and no cas expects: between such an op and
         * the next write nothing depends on the state, so it can be taken out of any linearization.
         */
        @Override
        public List<LinOp> prune(List<LinOp> ops) {
            java.util.Set<Object> observed = new java.util.HashSet<>();
            for (LinOp op : ops) {
                if (op.f() == Fn.READ && op.known()) {
                    observed.add(op.output());
                } else if (op.f() == Fn.CAS && op.input() instanceof List<?> l && l.size() == 2) {
                    observed.add(l.get(0));
                }
            }
            List<LinOp> out = new java.util.ArrayList<>(ops.size());
            for (LinOp op : ops) {
                Object written = op.f() == Fn.WRITE ? op.input()
                        : op.f() == Fn.CAS && op.input() instanceof List<?> l && l.size() == 2 ? l.get(1) : op;
                if (op.required() || op.f() == Fn.READ || observed.contains(written)) {
                    out.add(op);
                }
            }
            return out;
        }

        @Override
        public String describe(Optional<Object> s) {
            return "value " + s.map(String::valueOf).orElse("nil");
        }
    }
}
