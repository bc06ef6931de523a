/**
 * The test as data and the run: {@link io.lockchaos.core.TestSpec} is loaded from a workload file with defaults and
 * strict validation, and {@link io.lockchaos.core.Runner} runs the phases (store, ensemble, workers, final heal and
 * inspection, check) and stores everything.
 */
package io.lockchaos.core;
