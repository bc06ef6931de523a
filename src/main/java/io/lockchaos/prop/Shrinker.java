package io.lockchaos.prop;

import java.util.stream.Stream;

/**
 * Proposes smaller variants of a failing value, most aggressive first. A candidate need not be valid input; the
 * property runner drops candidates for which the property cannot be evaluated.
 */
@FunctionalInterface
public interface Shrinker<T> {
    Stream<T> candidates(T value);

    /** A shrinker that proposes nothing. */
    static <T> Shrinker<T> none() {
        return v -> Stream.empty();
    }
}
