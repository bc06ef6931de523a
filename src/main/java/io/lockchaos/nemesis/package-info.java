/**
 * The nemesis: the code that injects faults. What a fault is, and a schedule of them, is data of its own package
 * ({@code io.lockchaos.fault}), which lock services read to say which faults they take. Each {@link io.lockchaos.nemesis.Nemesis} handles some
 * fault kinds and {@link io.lockchaos.nemesis.Nemeses#compose} routes by kind, as Jepsen's nemeses do. Network faults
 * go through the Toxiproxy HTTP API ({@link io.lockchaos.nemesis.ProxyNetwork}), whichever server answers it, except
 * that servers in network namespaces are cut apart by a {@link io.lockchaos.nemesis.Partitioner} of iptables rules
 * ({@link io.lockchaos.nemesis.IptablesPartitioner}).
 * {@link io.lockchaos.nemesis.NemesisDriver} runs a schedule on the nemesis thread and records every fault as a
 * nemesis op, ending with a heal and a quiesce.
 */
package io.lockchaos.nemesis;
