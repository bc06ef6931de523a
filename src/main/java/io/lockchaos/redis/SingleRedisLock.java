package io.lockchaos.redis;

import io.lockchaos.api.Grant;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.params.SetParams;

/**
 * {@code redis-single}: the lock on one Redis instance the tutorial calls a single point of failure, written the way
 * Redis' documentation writes it: SET key random-value NX PX lease, retried after a short random delay, released by a
 * compare-and-delete script, and given up by the holder once its lease (less a drift allowance) has run out; a grant
 * whose reply came after that is given back at once.
 */
final class SingleRedisLock extends RedisLockClient {
    private String value;

    SingleRedisLock(String key, String address, long leaseMillis, int timeoutMillis) {
        super(key, List.of(address), leaseMillis, timeoutMillis);
    }

    /**
     * {@inheritDoc} A connection error is thrown: the SET may have been applied, so the outcome is unknown.
     */
    @Override
    public Grant acquire(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long start = System.nanoTime();
            String v = newValue();
            String reply = instances.get(0).jedis().set(key, v, SetParams.setParams().nx().px(leaseMillis));
            if ("OK".equals(reply)) {
                long validity = leaseMillis - (System.nanoTime() - start) / 1_000_000L - RedLock.drift(leaseMillis);
                if (validity > 0) {
                    value = v;
                    validUntil(start + (leaseMillis - RedLock.drift(leaseMillis)) * 1_000_000L);
                    return grant(v, 1, validity);
                }
                // the reply came too late to use the lease: give it back, as Redlock does
                instances.get(0).jedis().eval(Scripts.COMPARE_AND_DELETE, List.of(key), List.of(v));
            }
            if (System.nanoTime() >= deadline) {
                return null;
            }
            pause(RedLock.retryDelay());
        }
    }

    @Override
    public boolean release() throws Exception {
        Object deleted = instances.get(0).jedis().eval(Scripts.COMPARE_AND_DELETE, List.of(key), List.of(value));
        return deleted instanceof Long n && n == 1;
    }


}
