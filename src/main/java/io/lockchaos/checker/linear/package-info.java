/**
 * Linearizability checking in the manner of Knossos and Porcupine: is there a sequential order of the operations,
 * consistent with real time, that a {@link io.lockchaos.checker.linear.Model} accepts? {@link
 * io.lockchaos.checker.linear.WglSearch} is the Wing-Gong/Lowe search with a cache of (linearized set, state);
 * {@link io.lockchaos.checker.linear.LinearizabilityChecker} splits a history by key (P-compositionality), searches the
 * parts in parallel within time and memory bounds, and reports the longest linearizable prefix, the op that cannot be
 * linearized and the model states there. Indeterminate ops may take effect at any point after their invocation, or
 * never. For lock models, a session that expired may release what it held anywhere in its window: these checks judge
 * the lock service, while the mutual exclusion checker judges what the application believed.
 */
package io.lockchaos.checker.linear;
