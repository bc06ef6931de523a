/**
 * The nightly job: a {@link io.lockchaos.suite.Suite} runs workload files one after another within a budget, each in a
 * JVM of its own with its expectation; a {@link io.lockchaos.suite.SuiteRecord} keeps what each did (suite.json, and
 * JUnit XML for CI dashboards) after every workload; {@link io.lockchaos.suite.Trends} reads the stored suite runs
 * for each workload's outcomes over time and what changed since the last one.
 */
package io.lockchaos.suite;
