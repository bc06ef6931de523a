package io.lockchaos.cluster;

/**
 * A cluster whose servers say themselves whether they lead (etcd's status call), for the {@code leader} and {@code
 * follower} targets of faults. A cluster that is not one never has a leader (Redis instances, a PostgreSQL primary).
 */
public interface Roles {
    /** {@code leader}, {@code follower}, or {@code down} when the server does not answer within {@code timeoutMillis}. */
    String role(ServerNode n, int timeoutMillis);
}
