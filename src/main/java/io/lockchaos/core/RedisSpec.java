package io.lockchaos.core;

/**
 * How the leased recipes lock: Redis', PostgreSQL's lease and etcd's (ignored by ZooKeeper's).
 *
 * @param leaseMillis the lock's time to live (SET ... PX), {@code lease_ms}
 * @param appendOnly whether the instances persist every write before answering ({@code redis_appendonly}); off, a
 *     restarted instance has forgotten its locks
 * @param instanceTimeoutMillis the per-instance connect and read timeout of redis-single and redlock
 *     ({@code redis_timeout_ms}; the seed keeps Jedis' 2 s)
 */
public record RedisSpec(long leaseMillis, boolean appendOnly, int instanceTimeoutMillis) {
}
