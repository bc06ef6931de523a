package io.lockchaos.redis;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.client.Resources;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.params.SetParams;

/**
 * {@code redlock-tutorial}: the tutorial's RedLock, ported line by line ({@code tryLock} below is its code, on Jedis'
 * current API), with its defects kept, since they are what is tested:
 * <ol>
 *   <li>Release is GET, compare in Java, then DEL: not atomic. A holder whose lock expires between its GET and its
 *       DEL deletes the lock the next client acquired meanwhile, and a third client gets it too (double holder;
 *       scenario {@code redlock-tutorial-release}). The tutorial's RedLock has no unlock method at all: its failure path is that loop,
 *       which is what a user of the class would call.
 *   <li>No clock-drift allowance: the lock counts as held when {@code elapsed < expireMs}, so a grant whose lease is
 *       nearly spent counts as a full one; and the caller learns no validity, so the holder cannot stop in time.
 *   <li>No retry delay: a failed {@code tryLock} returns at once and is retried at once, so contending clients split
 *       the votes again and again.
 *   <li>No per-instance timeout: Jedis' default of 2 s per instance, against the 100 ms lease the tutorial describes.
 *   <li>{@code jedis.get(lockName).equals(value)} throws on a missing key; the tutorial's catch-all swallows it.
 * </ol>
 * Instances that fail in {@code tryLock} are skipped, as in the tutorial; the port reconnects a broken connection (the
 * seed keeps one Jedis per instance), which only helps it.
 */
final class TutorialRedLock extends RedisLockClient {
    /** Jedis' default connection and socket timeout, which the tutorial's RedLock keeps. */
    static final int JEDIS_DEFAULT_TIMEOUT_MILLIS = 2000;

    private String value;

    TutorialRedLock(String key, List<String> addresses, long leaseMillis) {
        super(key, addresses, leaseMillis, JEDIS_DEFAULT_TIMEOUT_MILLIS);
    }

    /** The tutorial's tryLock. */
    boolean tryLock(String lockName, String value, long expireMs) {
        int n = instances.size();
        int successCount = 0;
        long startTime = System.currentTimeMillis();
        for (Instance jedis : instances) {
            try {
                String result = jedis.jedis().set(lockName, value, SetParams.setParams().nx().px(expireMs));
                if ("OK".equals(result)) {
                    successCount++;
                }
            } catch (Exception e) {
                // 单个实例失败，继续尝试其他 (one instance failed: go on with the others)
            }
        }
        long elapsed = System.currentTimeMillis() - startTime;
        if (successCount >= n / 2 + 1 && elapsed < expireMs) {
            return true;
        }
        for (Instance jedis : instances) {
            try {
                if (jedis.jedis().get(lockName).equals(value)) {
                    jedis.jedis().del(lockName);
                }
            } catch (Exception e) {
                // 忽略 (ignored)
            }
        }
        return false;
    }

    @Override
    public Grant acquire(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String v = newValue();
            if (tryLock(key, v, leaseMillis)) {
                value = v;
                return grant(v, -1, -1);
            }
            if (System.nanoTime() >= deadline) {
                return null;
            }
        }
    }

    @Override
    public boolean release() throws Exception {
        return release(() -> { });
    }

    /**
     * The tutorial's GET-then-DEL loop; {@code danger} is passed between the first GET that finds this client's value
     * and its DEL. Always true: the tutorial's RedLock cannot tell whether it still held the lock.
     */
    @Override
    public boolean release(DangerPoint danger) throws Exception {
        boolean reached = false;
        for (Instance jedis : instances) {
            try {
                if (jedis.jedis().get(key).equals(value)) {
                    if (!reached) {
                        reached = true;
                        danger.reach();
                    }
                    jedis.jedis().del(key);
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                // 忽略 (ignored)
            }
        }
        return true;
    }
}
