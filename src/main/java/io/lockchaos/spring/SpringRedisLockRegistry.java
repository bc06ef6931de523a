package io.lockchaos.spring;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lockchaos.api.Backend;
import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.scheduling.concurrent.ConcurrentTaskScheduler;

/**
 * Spring Integration's {@code RedisLockRegistry} on the run's Redis instance, set up as its reference manual shows
 * outside a Spring context: a registry per process on a {@code LettuceConnectionFactory}, {@code
 * registry.obtain(key)}, {@code tryLock(timeout)}, {@code unlock()}.
 *
 * <p>A lock is the key {@code REGISTRY:KEY} whose value is the registry's client id, set by a script ({@code SET key
 * id PX expireAfter} when no one holds it) and expired by the instance's own clock after {@code expireAfter} (the
 * run's {@code lease_ms}, else the registry's 60 s). The unlock deletes the key only where it still holds this client's
 * id, and throws where it does not ("Lock was released in the store due to expiration"): a release that says whether
 * the lock was still held. A waiter either polls ({@code spin}, the default) or waits for the holder's unlock message
 * ({@code pub-sub}).
 *
 * <p>Settings ({@code lock_settings}): {@code lock_type}, {@code spin} or {@code pub-sub}; {@code renew}, {@code
 * true} to let the registry extend a held lock every third of {@code expireAfter} ({@code setRenewalTaskScheduler}, as
 * a long job would). This class imports only {@code io.lockchaos.api}, Spring Integration and the Spring Data Redis
 * and Lettuce classes its set-up takes: it is written as a user writes a lock, against the release the run names.
 */
public final class SpringRedisLockRegistry implements LockFactory {
    /** The registry key, the lock keys' prefix. */
    static final String REGISTRY = "lockchaos";
    /** The registry's own expiry, when the run names no lease. */
    private static final Duration DEFAULT_EXPIRE = Duration.ofSeconds(60);

    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public void setUp(LockContext ctx) {
        lockType(ctx.settings()); // a bad setting stops the run here, in one line, before any client opens
        renews(ctx.settings());
    }

    /** Lock keys of the run still set: each has the expiry the registry gave it, so none is a leak. */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        List<LockInspection.Entry> expiring = new ArrayList<>();
        List<LockInspection.Entry> left = new ArrayList<>();
        LettuceConnectionFactory factory = connections(ctx);
        try (RedisConnection c = factory.getConnection()) {
            for (String key : ctx.allKeys()) {
                String k = REGISTRY + ":" + key;
                Long pttl = c.keyCommands().pTtl(k.getBytes(StandardCharsets.UTF_8));
                if (pttl != null && pttl >= 0) {
                    expiring.add(new LockInspection.Entry(key, k, 0));
                } else if (pttl != null && pttl == -1) {
                    left.add(new LockInspection.Entry(key, k, 0)); // no expiry: only an unlock would end it
                }
            }
        } finally {
            factory.destroy();
        }
        return new LockInspection(left, expiring);
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        LettuceConnectionFactory factory = connections(ctx);
        Duration expire = ctx.leaseAsked().orElse(DEFAULT_EXPIRE);
        RedisLockRegistry registry = new RedisLockRegistry(factory, REGISTRY, expire.toMillis());
        registry.setRedisLockType(lockType(ctx.settings()));
        ScheduledExecutorService renewals = null;
        if (renews(ctx.settings())) {
            renewals = Executors.newSingleThreadScheduledExecutor();
            registry.setRenewalTaskScheduler(new ConcurrentTaskScheduler(renewals));
        }
        return new Client(factory, registry, renewals, ctx.key(), expire);
    }

    /**
     * One connection per client, through the client's proxy so that cuts reach it; no command awaited longer than the
     * request timeout, after which its outcome is unknown.
     */
    private static LettuceConnectionFactory connections(LockContext ctx) {
        String endpoint = ctx.endpoints().get(0);
        int colon = endpoint.lastIndexOf(':');
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(endpoint.substring(0, colon),
                Integer.parseInt(endpoint.substring(colon + 1)));
        LettuceClientConfiguration client = LettuceClientConfiguration.builder().commandTimeout(ctx.requestTimeout())
                .clientOptions(ClientOptions.builder().socketOptions(SocketOptions.builder()
                        .connectTimeout(ctx.connectionTimeout()).build()).build()).build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server, client);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** How waiters wait, from {@code lock_type}: polling ({@code spin}, the default) or on unlock messages. */
    static RedisLockRegistry.RedisLockType lockType(Map<String, String> settings) {
        String type = settings.getOrDefault("lock_type", "spin");
        return switch (type.toLowerCase(Locale.ROOT)) {
            case "spin" -> RedisLockRegistry.RedisLockType.SPIN_LOCK;
            case "pub-sub" -> RedisLockRegistry.RedisLockType.PUB_SUB_LOCK;
            default -> throw new IllegalArgumentException("lock_settings: lock_type: expected spin or pub-sub, got '"
                    + type + "'");
        };
    }

    /** Whether the registry renews a held lock, from {@code renew} (default false). */
    static boolean renews(Map<String, String> settings) {
        String renew = settings.getOrDefault("renew", "false");
        if (!renew.equals("true") && !renew.equals("false")) {
            throw new IllegalArgumentException("lock_settings: renew: expected true or false, got '" + renew + "'");
        }
        return Boolean.parseBoolean(renew);
    }

    private static final class Client implements LockClient {
        private final LettuceConnectionFactory factory;
        private final RedisLockRegistry registry;
        private final ScheduledExecutorService renewals;
        private final String name;
        private final Duration expire;
        private Lock held;

        Client(LettuceConnectionFactory factory, RedisLockRegistry registry, ScheduledExecutorService renewals,
               String name, Duration expire) {
            this.factory = factory;
            this.registry = registry;
            this.renewals = renewals;
            this.name = name;
            this.expire = expire;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            Lock lock = registry.obtain(name);
            if (!lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return null;
            }
            held = lock;
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("expire_after_ms", expire.toMillis());
            facts.put("renewed", renewals != null);
            return Grant.leased(name, 0, facts); // no session: the key outlives its connection
        }

        @Override
        public Release releaseOutcome(DangerPoint danger) throws Exception {
            danger.reach();
            Lock lock = held;
            held = null;
            try {
                lock.unlock();
                return Release.HELD;
            } catch (ConcurrentModificationException e) {
                return Release.GONE; // the key had expired, and may be another client's now
            }
        }

        @Override
        public boolean release() {
            throw new UnsupportedOperationException("see releaseOutcome");
        }

        @Override
        public void close() {
            try {
                registry.destroy();
            } catch (RuntimeException e) {
                // a client cut off cannot stop its listener cleanly; its keys expire
            }
            if (renewals != null) {
                renewals.shutdownNow();
            }
            factory.destroy();
        }
    }
}
