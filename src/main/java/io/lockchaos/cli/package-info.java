/**
 * The command line (picocli): {@code run} runs a workload on a local ensemble and checks it, {@code check} grades a
 * stored history, {@code gen} writes simulated histories of any
 * size, {@code bench} measures reading and checking speed. Bad input ends with one line on standard error and exit
 * code 2, never a stack trace.
 */
package io.lockchaos.cli;
