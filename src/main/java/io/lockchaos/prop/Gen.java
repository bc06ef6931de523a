package io.lockchaos.prop;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A generator of values from a random source. Must be a pure function of the random source, so that a seed
 * reproduces a case.
 */
@FunctionalInterface
public interface Gen<T> {
    T generate(SplittableRandom random);

    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        return r -> f.apply(generate(r));
    }

    default <R> Gen<R> flatMap(Function<? super T, Gen<R>> f) {
        return r -> f.apply(generate(r)).generate(r);
    }

    /** Whole numbers from {@code lo} to {@code hi} inclusive. */
    static Gen<Integer> ints(int lo, int hi) {
        return r -> r.nextInt(lo, hi + 1);
    }

    /** Doubles in {@code [lo, hi)}. */
    static Gen<Double> doubles(double lo, double hi) {
        return r -> lo + (hi - lo) * r.nextDouble();
    }

    /** One of the given values, equally likely. */
    @SafeVarargs
    static <T> Gen<T> oneOf(T... values) {
        List<T> list = List.of(values);
        return r -> list.get(r.nextInt(list.size()));
    }

    /** A fresh long seed, for generators that drive a simulator of their own. */
    static Gen<Long> seeds() {
        return SplittableRandom::nextLong;
    }
}
