/**
 * The systems under test: a {@link io.lockchaos.cluster.Cluster} is something with a connect string that can be set
 * up and torn down; capabilities such as {@link io.lockchaos.cluster.Killable} and {@link
 * io.lockchaos.cluster.Pausable} are separate interfaces. {@link io.lockchaos.cluster.LocalEnsemble} runs ZooKeeper
 * servers as child JVMs on 127.0.0.1, each with a watchdog that ends it when the parent dies, so no server outlives the
 * runner even after a SIGKILL. {@link io.lockchaos.cluster.ContainerEnsemble} runs the same server code in Docker
 * containers on one network (Testcontainers; check {@link io.lockchaos.cluster.Docker#available()} first). With a
 * {@link io.lockchaos.cluster.Netns} the local servers run in network namespaces of their own, on their own addresses,
 * so they can be cut apart inside the kernel rather than by proxies.
 */
package io.lockchaos.cluster;
