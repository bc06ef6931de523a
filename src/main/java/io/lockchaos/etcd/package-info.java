/**
 * etcd under test: members of one cluster as child processes ({@link io.lockchaos.etcd.EtcdServers}), its Lock API
 * on a client-kept lease with and without a server-checked fence ({@link io.lockchaos.etcd.EtcdLockFactory}), and the
 * final inspection of the lock keys left behind. Jepsen's etcd lock workloads, on one machine.
 */
package io.lockchaos.etcd;
