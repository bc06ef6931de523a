/**
 * Hosts reached over SSH ({@code --cluster ssh}), the way Jepsen's control node reaches its database nodes: {@link
 * SshHost} runs argument arrays there through Apache MINA SSHD's client (each argument quoted for the remote shell,
 * never a shelled-out {@code ssh}), uploads files and starts long-lived processes whose standard input is the runner's
 * connection, so that they end with it. Host keys are checked against a known-hosts file ({@link SshOptions}).
 * Everything a run starts or changes on a host is listed in a folder of its own there, and a keeper process undoes
 * it when the connection ends, however the runner ended ({@link HostRun}). {@link SshHosts} gives the partitioner
 * those hosts' iptables; {@link SshLab} makes hosts of this machine's own (network namespaces running Debian's sshd)
 * to prove all of it without other machines.
 */
package io.lockchaos.ssh;
