package io.lockchaos.checker.linear;

import io.lockchaos.history.Fn;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A read/write register and a compare-and-set register, initially nil as in Jepsen. A read's output is the value
 * read; a write's input is the value written; a cas's input is {@code [old new]}. States are wrapped in Optional so
 * that nil is a value.
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
                    if (!op.known()) {
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

        @Override
        public String describe(Optional<Object> s) {
            return "value " + s.map(String::valueOf).orElse("nil");
        }
    }
}
