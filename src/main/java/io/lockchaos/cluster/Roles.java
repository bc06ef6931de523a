package io.lockchaos.cluster;

/**
 * A cluster whose servers say themselves whether they lead (etcd's status call), for the {@code leader} and {@code
 * follower} targets of faults; ZooKeeper's servers are asked with a four-letter word instead.
 */
public interface Roles {
    /** {@code leader}, {@code follower}, or {@code down} when the server does not answer within {@code timeoutMillis}. */
    String role(ServerNode n, int timeoutMillis);
}
