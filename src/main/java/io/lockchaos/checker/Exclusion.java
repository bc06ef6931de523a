package io.lockchaos.checker;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The recipe's exclusion rule, in one place for the mutual exclusion checker (over a whole history) and the live
 * monitor (as a run records): which certain holders a new certain holder may not overlap.
 */
final class Exclusion {
    private Exclusion() {
    }

    /**
     * Returns the units among {@code active} that a new unit of {@code process} in {@code mode} may not overlap, or an
     * empty list when the recipe allows it. A semaphore counts every unit, its own process's too (each lease is one);
     * a mutex or read/write lock counts other processes only (reentry and downgrades are the reentrancy checker's
     * business), and readers never exclude readers.
     */
    static <T> List<T> conflicts(Recipe recipe, List<T> active, int process, Hold.Mode mode,
                                 ToIntFunction<T> processOf, Function<T, Hold.Mode> modeOf) {
        if (recipe.isSemaphore()) {
            return active.size() + 1 > recipe.capacity() ? new ArrayList<>(active) : List.of();
        }
        List<T> out = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (T a : active) {
            if (processOf.applyAsInt(a) == process) {
                continue;
            }
            if (mode != Hold.Mode.READ || modeOf.apply(a) != Hold.Mode.READ) {
                out.add(a);
                seen.add(processOf.applyAsInt(a));
            }
        }
        if (!recipe.readWrite() && seen.size() + 1 <= recipe.capacity()) {
            return List.of();
        }
        return out;
    }
}
