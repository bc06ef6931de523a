package io.lockchaos.shedlock;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.javacrumbs.shedlock.provider.redis.jedis4.JedisLockProvider;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * ShedLock's Redis provider on Jedis ({@code shedlock-provider-redis-jedis4}) on the run's Redis instance, configured
 * as its documentation shows ({@code new JedisLockProvider(jedisPool, ENV)}) and used as a scheduled job uses it.
 *
 * <p>A lock is the key {@code job-lock:ENV:NAME}, set with {@code SET key value NX PX ttl}, the ttl being
 * {@code lockAtMostFor} counted on the application's clock: the instance expires it by its own. Through 5.12.0 the
 * unlock is {@code DEL key}, whoever holds the key then (with {@code lockAtLeastFor}, {@code SET key value XX PX
 * rest}); releases from 6.7.0 may check the value first, when the provider is built with {@code safeUpdate}. The job
 * cannot ask whether it still holds the lock and its unlock says nothing, as with {@link ShedLockJdbc}.
 *
 * <p>Settings ({@code lock_settings}): {@code lock_at_least_for_ms} (default 0), {@code environment} (default
 * ShedLock's, {@code default}). This class imports only {@code io.lockchaos.api}, ShedLock and Jedis.
 */
public final class ShedLockRedis implements LockFactory {
    /** ShedLock's own default environment, the key's middle part. */
    static final String ENVIRONMENT = "default";

    @Override
    public Promises promises() {
        return Promises.exclusive().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public void setUp(LockContext ctx) throws Exception {
        ShedLockClient.atLeast(ctx); // a bad setting stops the run here, in one line, before any client opens
    }

    /** Lock keys of the run still set: each has the ttl the provider gave it and ends by itself, so none is a leak. */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        List<LockInspection.Entry> expiring = new ArrayList<>();
        List<LockInspection.Entry> left = new ArrayList<>();
        String[] hostPort = hostPort(ctx.endpoints().get(0));
        try (Jedis jedis = new Jedis(hostPort[0], Integer.parseInt(hostPort[1]), 2000)) {
            for (String key : ctx.allKeys()) {
                String k = key(ctx, key);
                long pttl = jedis.pttl(k);
                if (pttl >= 0) {
                    expiring.add(new LockInspection.Entry(key, k, 0));
                } else if (pttl == -1) {
                    left.add(new LockInspection.Entry(key, k, 0)); // no ttl: nothing but an unlock would ever end it
                }
            }
        }
        return new LockInspection(left, expiring);
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        String[] hostPort = hostPort(ctx.endpoints().get(0));
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(2);
        // through the client's proxy, so that cuts reach it; an answer awaited no longer than the request timeout
        JedisPool pool = new JedisPool(config, hostPort[0], Integer.parseInt(hostPort[1]),
                (int) ctx.connectionTimeout().toMillis(), (int) ctx.requestTimeout().toMillis(), null, 0, null);
        JedisLockProvider provider = new JedisLockProvider(pool, environment(ctx));
        return new ShedLockClient(c -> {
            try {
                return provider.lock(c);
            } catch (JedisConnectionException e) {
                if (borrowing(e)) {
                    return Optional.empty(); // no connection, so no SET was sent: certainly not locked
                }
                throw e;
            }
        }, ctx.key(), ctx.leaseAsked().orElse(ctx.lease()), ShedLockClient.atLeast(ctx), pool::close);
    }

    /** The key the provider sets for the run's lock {@code key}. */
    static String key(LockContext ctx, String key) {
        return "job-lock:" + environment(ctx) + ":" + key;
    }

    private static String environment(LockContext ctx) {
        return ctx.settings().getOrDefault("environment", ENVIRONMENT);
    }

    /**
     * Whether {@code e} came from taking a connection from the pool (refused, or a new connection's own handshake
     * timed out, as through a cut), before the provider's command was written: then nothing reached the instance.
     */
    static boolean borrowing(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            for (StackTraceElement f : c.getStackTrace()) {
                if (f.getMethodName().equals("getResource") && f.getClassName().startsWith("redis.clients.jedis.")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String[] hostPort(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        return new String[] {endpoint.substring(0, colon), endpoint.substring(colon + 1)};
    }
}
