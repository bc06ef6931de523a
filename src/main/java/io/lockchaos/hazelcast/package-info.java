/**
 * Hazelcast as a lock service: members as child JVMs on the release a run names (the CP Subsystem's Raft over all of
 * them, or its unsafe mode with none), killed, paused and cut like every server, for Hazelcast's FencedLock,
 * whose recipe is a library's ({@code io.lockchaos.hazelcastlock}), loaded in client agents.
 */
package io.lockchaos.hazelcast;
