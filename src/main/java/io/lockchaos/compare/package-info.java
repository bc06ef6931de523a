/**
 * The tutorial's comparison table, measured: the ZooKeeper, Redis and database columns each stand for one recipe,
 * run under the same faults and the same load, and each claim of the tutorial (reliability, performance, complexity,
 * herd effect, lock types, failure recovery) is set beside what the runs and the recipe's code show. The plan is fixed
 * and written down ({@link io.lockchaos.compare.Plan}) so that two tables differ only by what was measured.
 */
package io.lockchaos.compare;
