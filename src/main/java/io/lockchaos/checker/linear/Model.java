package io.lockchaos.checker.linear;

import io.lockchaos.history.Fn;
import java.util.Set;

/**
 * A sequential specification. States must be immutable with value equality and hash codes: the search caches them.
 *
 * @param <S> the state type
 */
public interface Model<S> {
    /** The name used on the command line. */
    String name();

    /** The functions this model understands; ops with other functions are not part of the check. */
    Set<Fn> fns();

    S init();

    /**
     * Applies an op. For an op whose output is unknown ({@code known} false) the model must accept any output the op
     * could have produced.
     *
     * @return the next state, or null when the op cannot happen in {@code state}
     */
    S step(S state, LinOp op);

    /** A short description of a state for reports. */
    default String describe(S state) {
        return String.valueOf(state);
    }

    /**
     * Whether an acquire by a process that never releases afterwards can be left out: true for lock models in which a
     * holder only ever makes other ops illegal (owner-aware ones). Then any linearization that contains such an
     * acquire stays legal without it, so a crashed acquire need not be searched over: this is what keeps 1% crashed
     * acquires from blowing up the search.
     */
    default boolean neverReleasedAcquireIsRedundant() {
        return false;
    }

    /** Whether this is a lock model (acquire/release; expired sessions release). */
    default boolean isLock() {
        return fns().contains(Fn.ACQUIRE);
    }
}
