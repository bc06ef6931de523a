/**
 * Faults as data: a {@link io.lockchaos.fault.Fault} is a kind, a target such as "holder" or "leader", and options; a
 * {@link io.lockchaos.fault.Schedule} is a list of timed {@link io.lockchaos.fault.FaultEvent}s, parsed from a
 * workload file's timeline ({@code at 5s isolate holder for 6s}) or expanded from a seeded random mix, and stored
 * with the run so it replays. Data only, below the lock services: a service says which faults it takes by reading
 * them, and {@code io.lockchaos.nemesis} injects them.
 */
package io.lockchaos.fault;
