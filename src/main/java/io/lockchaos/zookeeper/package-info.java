/**
 * ZooKeeper as a lock service: {@link io.lockchaos.zookeeper.ZooKeeperService}; its ensembles of every kind (child
 * JVMs on 127.0.0.1 or in namespaces, {@link io.lockchaos.zookeeper.LocalEnsemble}; containers, {@link
 * io.lockchaos.zookeeper.ContainerEnsemble}; SSH hosts, {@link io.lockchaos.zookeeper.SshEnsemble}; the user's own,
 * {@link io.lockchaos.zookeeper.ExternalEnsemble}) and the faults only its servers take (a cut transaction log, a
 * changed membership), whose nemeses a local ensemble hands the run; Curator's recipes as lock clients ({@link
 * io.lockchaos.zookeeper.CuratorLockFactory}, {@link io.lockchaos.zookeeper.CuratorLocks}, {@link
 * io.lockchaos.zookeeper.CuratorMutexClient}) and the tutorial's hand-written locks on a raw handle ({@link
 * io.lockchaos.zookeeper.ZooKeeperLockFactory}, {@link io.lockchaos.zookeeper.NaiveLock} and its kinds).
 */
package io.lockchaos.zookeeper;
