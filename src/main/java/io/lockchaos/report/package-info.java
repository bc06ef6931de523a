/**
 * Printing only: results.json, the console summary and the run reports ({@link io.lockchaos.report.Reports}): the
 * timeline page, latency and rate plots, summary.txt and junit.xml. Report code renders what checkers decided and
 * never decides a verdict itself. The pure pieces ({@link io.lockchaos.report.FaultPeriods},
 * {@link io.lockchaos.report.TimeBuckets}, {@link io.lockchaos.report.TimelineData}) are kept apart from the writers
 * so that they can be tested on tiny histories.
 */
package io.lockchaos.report;
