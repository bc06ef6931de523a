/**
 * Checkers: pure functions from a {@link io.lockchaos.history.History} to a {@link
 * io.lockchaos.checker.CheckResult} with a three-valued {@link io.lockchaos.checker.Verdict}. The dedicated lock
 * checkers (mutual exclusion, reentrancy, fencing, lost updates, leaks, fairness) share one analysis of who held which
 * lock when ({@link io.lockchaos.checker.LockHolds}); {@link io.lockchaos.checker.Checkers#compose} runs several and
 * keeps the worst verdict, and a checker that throws yields unknown instead of crashing the run. Checkers never print;
 * the report and cli packages do.
 */
package io.lockchaos.checker;
