/**
 * What runs inside a ZooKeeper server's JVM rather than the runner's: {@link io.lockchaos.zookeeper.server.ChildServer},
 * the main class that ties the server's life to its runner, and {@link
 * io.lockchaos.zookeeper.server.RoutedQuorumPeerMain}, the peer that dials each other server through its own proxy. A
 * server of another ZooKeeper release loads this package and {@code io.lockchaos.cluster}'s watchdog beside that
 * release's jars, so it names nothing else of the project.
 */
package io.lockchaos.zookeeper.server;
