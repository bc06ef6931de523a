/**
 * Simulated histories: a discrete-event model of a correct lock service (FIFO queue of lock nodes, N permits, read/write
 * modes, reentrancy, crashed clients whose sessions expire, timed-out waiters that give up) driven by random
 * processes, with optional injected bugs. Property-based tests use it to generate valid and invalid histories, and the
 * {@code gen} command uses it to produce benchmark histories of any size. Deterministic for a given seed.
 */
package io.lockchaos.sim;
