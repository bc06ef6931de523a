/**
 * ZooKeeper as a lock service: {@link io.lockchaos.zookeeper.ZooKeeperService}, Curator's recipes as lock clients
 * ({@link io.lockchaos.zookeeper.CuratorLockFactory}, {@link io.lockchaos.zookeeper.CuratorLocks}, {@link
 * io.lockchaos.zookeeper.CuratorMutexClient}) and the tutorial's hand-written locks on a raw handle ({@link
 * io.lockchaos.zookeeper.ZooKeeperLockFactory}, {@link io.lockchaos.zookeeper.NaiveLock} and its kinds). Its servers,
 * the ensembles of every kind, are still in {@code io.lockchaos.cluster}, which the runner builds them from.
 */
package io.lockchaos.zookeeper;
