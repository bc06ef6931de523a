package io.lockchaos.redis;

import io.lockchaos.api.Grant;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import redis.clients.jedis.params.SetParams;

/**
 * {@code redlock}: the Redlock algorithm as its author specifies it (redis.io, "Distributed Locks with Redis"). Per
 * attempt: a new random value; SET NX PX on every instance in turn with a short per-instance timeout (an instance that
 * does not answer counts as refused); the lock is held when a majority granted it and the validity, lease - elapsed
 * - drift, is still positive; otherwise it is released on every instance and tried again after a random delay.
 * Release is a compare-and-delete script on every instance. The holder gives the lock up once its validity has run
 * out. There is no fencing token: Redlock has none.
 */
final class RedLock extends RedisLockClient {
    /** The clock-drift allowance Redlock's reference implementation uses: 1% of the lease, plus 2 ms. */
    static long drift(long leaseMillis) {
        return leaseMillis / 100 + 2;
    }

    /** A random retry delay, 5 to 25 ms, so that contending clients do not split the votes again and again. */
    static long retryDelay() {
        return 5 + ThreadLocalRandom.current().nextLong(21);
    }

    private String value;

    RedLock(String key, List<String> addresses, long leaseMillis, int timeoutMillis) {
        super(key, addresses, leaseMillis, timeoutMillis);
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String v = newValue();
            long start = System.nanoTime();
            int granted = 0;
            for (Instance i : instances) {
                try {
                    if ("OK".equals(i.jedis().set(key, v, SetParams.setParams().nx().px(leaseMillis)))) {
                        granted++;
                    }
                } catch (RuntimeException e) {
                    // an instance that cannot answer in time counts as one that refused
                }
            }
            long validity = leaseMillis - (System.nanoTime() - start) / 1_000_000L - drift(leaseMillis);
            if (granted >= quorum() && validity > 0) {
                value = v;
                validUntil(start + (leaseMillis - drift(leaseMillis)) * 1_000_000L);
                return grant(v, granted, validity);
            }
            unlockAll(v);
            if (System.nanoTime() >= deadline) {
                return null;
            }
            pause(retryDelay());
        }
    }

    /** Compare-and-delete on every instance; returns how many deleted and how many could not be asked. */
    private int[] unlockAll(String v) {
        int deleted = 0;
        int unknown = 0;
        for (Instance i : instances) {
            try {
                Object r = i.jedis().eval(Scripts.COMPARE_AND_DELETE, List.of(key), List.of(v));
                if (r instanceof Long n && n == 1) {
                    deleted++;
                }
            } catch (RuntimeException e) {
                unknown++;
            }
        }
        return new int[] {deleted, unknown};
    }

    /**
     * {@inheritDoc} True when a majority still held this client's value; false when fewer did although every
     * instance answered (the lock had expired or an instance forgot it); an exception when the instances that did not
     * answer decide it.
     */
    @Override
    public boolean release() throws Exception {
        if (value == null) {
            return false; // nothing was granted to release: an application's finally after an acquire that threw
        }
        int[] r = unlockAll(value);
        if (r[0] >= quorum()) {
            return true;
        }
        if (r[0] + r[1] < quorum()) {
            return false;
        }
        throw new java.io.IOException("release: " + r[0] + " of " + instances.size() + " instances deleted the lock"
                + " and " + r[1] + " did not answer");
    }


}
