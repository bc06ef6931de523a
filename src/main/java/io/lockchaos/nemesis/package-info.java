/**
 * The nemesis: faults, their schedules, and the code that injects them. A {@link io.lockchaos.nemesis.Fault} is data
 * (a kind, a target such as "holder" or "leader", options); a {@link io.lockchaos.nemesis.Schedule} is a list of
 * timed fault events, parsed from a workload file's timeline ({@code at 5s isolate holder for 6s}) or expanded from
 * a seeded random mix, and stored with the run so it replays. Each {@link io.lockchaos.nemesis.Nemesis} handles some
 * fault kinds and {@link io.lockchaos.nemesis.Nemeses#compose} routes by kind, as Jepsen's nemeses do. Network faults
 * go through the Toxiproxy HTTP API ({@link io.lockchaos.nemesis.ProxyNetwork}), whichever server answers it, except
 * that servers in network namespaces are cut apart by a {@link io.lockchaos.nemesis.Partitioner} of iptables rules
 * ({@link io.lockchaos.nemesis.IptablesPartitioner}).
 * {@link io.lockchaos.nemesis.NemesisDriver} runs a schedule on the nemesis thread and records every fault as a
 * nemesis op, ending with a heal and a quiesce.
 */
package io.lockchaos.nemesis;
