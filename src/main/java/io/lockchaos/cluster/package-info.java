/**
 * What the servers of every lock service share, named after none of them: a {@link io.lockchaos.cluster.Cluster} is
 * something with a connect string that can be set up and torn down, and capabilities such as {@link
 * io.lockchaos.cluster.Killable}, {@link io.lockchaos.cluster.Pausable} and {@link io.lockchaos.cluster.Roles} are
 * separate interfaces that the nemeses ask for. Child processes die with the runner, even after a SIGKILL ({@link
 * io.lockchaos.cluster.ChildProcesses}, {@link io.lockchaos.cluster.ParentWatchdog}); ports come from below the
 * ephemeral range, reserved across runners ({@link io.lockchaos.cluster.PortReservations}); with a {@link
 * io.lockchaos.cluster.Netns} local servers run in network namespaces of their own, so they can be cut apart inside
 * the kernel rather than by proxies; {@link io.lockchaos.cluster.Docker} confines containers to loopback. Each
 * service's own servers are in its package ({@code io.lockchaos.zookeeper}'s ensembles, {@code io.lockchaos.redis}'s
 * instances, ...).
 */
package io.lockchaos.cluster;
