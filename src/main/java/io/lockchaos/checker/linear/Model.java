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
     * Returns the ops with those removed whose presence can never be needed to linearize the rest: an optional op
     * that, whenever a linearization includes it, can be taken out leaving every other op legal. This keeps crashed
     * ops from blowing up the search. The default removes nothing.
     */
    default java.util.List<LinOp> prune(java.util.List<LinOp> ops) {
        return ops;
    }

    /**
     * Whether which hold an op acts on depends on the order the holds were granted in (a semaphore's non-holder returns
     * the lease acquired first): then every hold keeps its identity once any is named by a release of the lock
     * service; otherwise only the named ones do, and the rest are one anonymous hold ({@link LinOp#ANONYMOUS}).
     */
    default boolean holdOrderMatters() {
        return false;
    }

    /** Whether this is a lock model (acquire/release; expired sessions release). */
    default boolean isLock() {
        return fns().contains(Fn.ACQUIRE);
    }
}
