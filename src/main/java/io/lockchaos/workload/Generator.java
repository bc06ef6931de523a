package io.lockchaos.workload;

/**
 * What a worker does next, as an immutable value. A worker keeps only the generator it was last handed: calling
 * {@link #next} never changes this object, so the same generator may be given to many workers (each gets the same
 * stream unless the combinators derive per-worker seeds) and replayed.
 */
@FunctionalInterface
public interface Generator {
    /**
     * The step after this point.
     *
     * @param context who asks and when
     * @return the next cycle with the generator for the rest, or null when this generator is exhausted
     */
    Step next(Context context);

    /**
     * One cycle and what comes after it.
     *
     * @param cycle what to do now
     * @param rest the generator for everything after it; never null (it may itself be exhausted)
     */
    record Step(Cycle cycle, Generator rest) {
    }

    /**
     * Who asks for a step and when.
     *
     * @param worker the worker's index (stable across process changes)
     * @param elapsedNanos nanoseconds since the run's workers started
     */
    record Context(int worker, long elapsedNanos) {
    }
}
