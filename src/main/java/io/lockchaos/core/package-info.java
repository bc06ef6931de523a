/**
 * The test as data and the run. {@link io.lockchaos.core.TestSpec} is a name, a seed, the
 * {@link io.lockchaos.client.LockRecipe} and five small records (cluster, clients, workload, faults, checking); it is
 * built only by {@link io.lockchaos.core.TestSpecs}, from a workload file's keys over the defaults with strict
 * validation, so the keys users write stay stable while the types behind them change. Every decision that depends on
 * the recipe asks the recipe, never its name. {@link io.lockchaos.core.Runner} runs the phases (store, ensemble,
 * workers, final heal and inspection, check) and stores everything.
 */
package io.lockchaos.core;
