package io.lockchaos.core;

import io.lockchaos.pg.PgReplication;

/**
 * How the Redis and PostgreSQL recipes lock (ignored by ZooKeeper's).
 *
 * @param leaseMillis the lock's time to live (SET ... PX), {@code lease_ms}
 * @param appendOnly whether the instances persist every write before answering ({@code redis_appendonly}); off, a
 *     restarted instance has forgotten its locks
 * @param instanceTimeoutMillis the per-instance connect and read timeout of redis-single and redlock
 *     ({@code redis_timeout_ms}; the seed keeps Jedis' 2 s)
 * @param pgReplication whether PostgreSQL's node 1 is a primary with streaming replicas, and how its commits wait for
 *     them ({@code pg_replication})
 */
public record RedisSpec(long leaseMillis, boolean appendOnly, int instanceTimeoutMillis,
                        PgReplication pgReplication) {
    /** Without replicas. */
    public RedisSpec(long leaseMillis, boolean appendOnly, int instanceTimeoutMillis) {
        this(leaseMillis, appendOnly, instanceTimeoutMillis, PgReplication.NONE);
    }
}
