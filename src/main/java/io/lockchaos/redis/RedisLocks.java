package io.lockchaos.redis;

import io.lockchaos.api.LockClient;
import io.lockchaos.client.LockRecipe;
import java.util.List;

/** Opens the Redis lock clients by recipe. */
public final class RedisLocks {
    /** How many Sentinels watch the replicated instances of the Sentinel recipes. */
    public static final int SENTINELS = 3;
    /** Redlock's per-instance timeout when a test names none: short against the lease, as Redlock asks. */
    public static final int DEFAULT_INSTANCE_TIMEOUT_MILLIS = 100;

    private RedisLocks() {
    }

    /**
     * A client of {@code recipe} on lock {@code key}.
     *
     * @param addresses host:port of every instance, in node order (a client's proxies, or the instances)
     * @param leaseMillis the lock's time to live (PX)
     * @param timeoutMillis per-instance connect and read timeout (redis-single, redlock; the tutorial's RedLock keeps Jedis' 2 s)
     */
    public static LockClient open(LockRecipe recipe, String key, List<String> addresses, long leaseMillis,
                                  int timeoutMillis) {
        return open(recipe, key, addresses, java.util.Map.of(), java.util.Map.of(), leaseMillis, timeoutMillis);
    }

    /**
     * {@link #open(LockRecipe, String, List, long, int)}, with {@code routes}: each server's own address mapped to
     * the client's way to it, for a client whose servers hand out addresses (Redisson on Sentinel: the Sentinels are
     * the last {@link #SENTINELS} of {@code addresses}), and the workload's {@code settings} ({@code lock_settings}:
     * the Sentinel recipes read {@code check_lock_synced_slaves}, Redisson's {@code checkLockSyncedSlaves}).
     */
    public static LockClient open(LockRecipe recipe, String key, List<String> addresses,
                                  java.util.Map<String, String> routes, java.util.Map<String, String> settings,
                                  long leaseMillis, int timeoutMillis) {
        return switch (recipe.kind()) {
            case REDISSON_SENTINEL, REDISSON_FENCED_SENTINEL -> new RedissonLock(key,
                    addresses.subList(addresses.size() - SENTINELS, addresses.size()), routes, leaseMillis,
                    recipe.kind() == LockRecipe.Kind.REDISSON_FENCED_SENTINEL,
                    !"false".equals(settings.get("check_lock_synced_slaves")));
            case REDIS_SINGLE -> new SingleRedisLock(key, addresses.get(0), leaseMillis, timeoutMillis);
            case REDLOCK_TUTORIAL -> new TutorialRedLock(key, addresses, leaseMillis);
            case REDLOCK -> new RedLock(key, addresses, leaseMillis, timeoutMillis);
            case REDISSON -> new RedissonLock(key, addresses.get(0), leaseMillis, false);
            case REDISSON_FENCED -> new RedissonLock(key, addresses.get(0), leaseMillis, true);
            default -> throw new IllegalArgumentException(recipe.wireName() + " is not a Redis recipe");
        };
    }

    /** The id a lock client records as its session and owner. */
    public static long idOf(LockClient c) {
        return c instanceof RedisLockClient r ? r.id() : c instanceof RedissonLock r ? r.id() : 0;
    }

    /** The client id at the start of a lock value this project wrote, or 0. */
    public static long ownerOf(String value) {
        return RedisLockClient.ownerOf(value);
    }
}
