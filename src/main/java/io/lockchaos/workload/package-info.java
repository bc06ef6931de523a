/**
 * Workload generators: immutable values that say what each worker does next. A {@link
 * io.lockchaos.workload.Generator} is asked for the next {@link io.lockchaos.workload.Cycle} (pause, acquire with a
 * timeout or a single try, hold, re-enter, release) and answers with that cycle and the generator for the rest, as
 * Jepsen's generators do, so one value can be handed to many threads and replayed from its seed. Randomness is carried
 * in the value as a counter-based stream, never as a shared mutable {@code Random}. {@link
 * io.lockchaos.workload.Generators} holds the combinators (limit, time limit, phases, mix, stagger, rate, try-acquire
 * fraction, hold range).
 */
package io.lockchaos.workload;
