/**
 * The engine behind reproducing bugs on demand, as a plain Java API: a {@link io.lockchaos.scenario.Scenario} is a
 * test built in code (or loaded from a workload file or a stored run) that runs and answers with a {@link
 * io.lockchaos.scenario.ScenarioResult}; {@link io.lockchaos.scenario.Explorer} runs scenarios with random fault
 * schedules and parameters derived from one seed until one is invalid; {@link io.lockchaos.scenario.ScheduleShrinker}
 * makes a failing scenario smaller (fewer and shorter faults, fewer clients, less time) while it still fails, re-running
 * each candidate because real runs are not deterministic. Nothing here depends on a test framework, so JUnit or any
 * property-based framework can drive it.
 */
package io.lockchaos.scenario;
