package io.lockchaos.core;

/**
 * How the leased recipes lock: Redis', PostgreSQL's lease and etcd's (ignored by ZooKeeper's).
 *
 * @param leaseMillis the lock's time to live (SET ... PX), {@code lease_ms}; the declaration's 10 s when the workload
 *     asks for none
 * @param appendOnly whether the instances persist every write before answering ({@code redis_appendonly}); off, a
 *     restarted instance has forgotten its locks
 * @param instanceTimeoutMillis the per-instance connect and read timeout of redis-single and redlock
 *     ({@code redis_timeout_ms}; the seed keeps Jedis' 2 s)
 * @param leaseAsked whether the workload gave {@code lease_ms}: a lock of the user's own may keep a lease of its own
 *     when it did not ({@code LockContext.leaseAsked()})
 */
public record RedisSpec(long leaseMillis, boolean appendOnly, int instanceTimeoutMillis, boolean leaseAsked) {
    public RedisSpec(long leaseMillis, boolean appendOnly, int instanceTimeoutMillis) {
        this(leaseMillis, appendOnly, instanceTimeoutMillis, true);
    }

    /** {@code lease_ms} as a workload file gives it back: empty when the workload asked for none. */
    public String leaseText() {
        return leaseAsked ? Long.toString(leaseMillis) : "";
    }
}
