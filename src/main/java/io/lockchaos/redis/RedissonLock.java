package io.lockchaos.redis;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.redisson.config.SentinelServersConfig;
import org.redisson.misc.RedisURI;

/**
 * {@code redisson} and {@code redisson-fenced}: Redisson's RLock and RFencedLock on one instance, one RedissonClient
 * per process, in Redisson's default configuration but for the watchdog's timeout, which is the test's lease: the
 * lock is taken without a lease time, so Redisson's watchdog renews it every third of that while the client lives.
 * Redisson deprecated its RedLock (RedissonRedLock, a MultiLock over independent instances) and recommends RLock and
 * RFencedLock instead; RFencedLock hands out a fencing token that grows with every acquisition, recorded as the
 * grant's token, so the fenced register can reject a stale holder's write. Both are reentrant and owned by a thread
 * (the worker's, which acquires and releases).
 *
 * <p>{@code redisson-sentinel} and {@code redisson-fenced-sentinel}: the same locks on a primary with replicas under
 * Redis Sentinel, Redisson asking the Sentinels for the primary ({@code useSentinelServers}). The Sentinels answer
 * with the instances' own addresses, which Redisson's {@code NatMapper} maps to the client's proxies, so that a cut of
 * the client still reaches every connection it makes.
 */
final class RedissonLock implements LockClient {
    /**
     * One event loop and one executor for every client: Redisson's defaults (16 threads and 32 netty threads per
     * client) would start thousands of threads for a hundred clients.
     */
    private static final EventLoopGroup LOOP = new NioEventLoopGroup(2,
            (java.util.concurrent.ThreadFactory) r -> daemon(r, "lockchaos-redisson-io"));
    private static final ExecutorService EXECUTOR = Executors.newCachedThreadPool(r -> daemon(r, "lockchaos-redisson"));
    /** Which of this project's client ids a Redisson client id (the prefix of its lock fields) belongs to. */
    private static final Map<String, Long> OWNERS = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong(1L << 40); // apart from the Jedis clients' ids

    private final String key;
    private final boolean fenced;
    private final RedissonClient client;
    private final long id = IDS.incrementAndGet();
    private RLock lock;

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    RedissonLock(String key, String address, long leaseMillis, boolean fenced) {
        this.key = key;
        this.fenced = fenced;
        Config c = config(leaseMillis);
        c.useSingleServer().setAddress("redis://" + address).setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(4).setSubscriptionConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(2);
        this.client = Redisson.create(c);
        OWNERS.put(client.getId(), id);
    }

    /**
     * The same lock through Sentinels at {@code sentinels}, their answers mapped through {@code routes}; {@code
     * synced}: Redisson's {@code checkLockSyncedSlaves} (on by default), a lock's write waits until the replicas
     * have it ({@code WAIT}).
     */
    RedissonLock(String key, List<String> sentinels, Map<String, String> routes, long leaseMillis, boolean fenced,
                 boolean synced) {
        this.key = key;
        this.fenced = fenced;
        Config c = config(leaseMillis);
        c.setCheckLockSyncedSlaves(synced);
        SentinelServersConfig s = c.useSentinelServers().setMasterName(RedisServers.PRIMARY_NAME)
                .setCheckSentinelsList(false).setMasterConnectionMinimumIdleSize(1).setMasterConnectionPoolSize(4)
                .setSlaveConnectionMinimumIdleSize(1).setSlaveConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(2)
                .setReadMode(ReadMode.MASTER).setNatMapper(uri -> {
                    String via = routes.get(uri.getHost() + ":" + uri.getPort());
                    if (via == null) {
                        return uri;
                    }
                    int colon = via.lastIndexOf(':');
                    return new RedisURI(uri.getScheme(), via.substring(0, colon),
                            Integer.parseInt(via.substring(colon + 1)));
                });
        for (String a : sentinels) {
            s.addSentinelAddress("redis://" + a);
        }
        this.client = Redisson.create(c);
        OWNERS.put(client.getId(), id);
    }

    private static Config config(long leaseMillis) {
        Config c = new Config();
        c.setLockWatchdogTimeout(leaseMillis);
        c.setEventLoopGroup(LOOP);
        c.setExecutor(EXECUTOR);
        return c;
    }

    long id() {
        return id;
    }

    /** The client id of a Redisson lock field ({@code <redisson id>:<thread id>}), or 0. */
    static long ownerOfField(String field) {
        int colon = field.lastIndexOf(':');
        return colon < 0 ? 0 : OWNERS.getOrDefault(field.substring(0, colon), 0L);
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        long token = -1;
        // the lock is kept before the call: a release after an acquire that threw (interrupted on the wire, say)
        // asks Redisson about this very lock, as an application's finally block does
        if (fenced) {
            RFencedLock f = client.getFencedLock(key);
            lock = f;
            Long t = f.tryLockAndGetToken(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (t == null) {
                return null;
            }
            token = t;
        } else {
            RLock l = client.getLock(key);
            lock = l;
            if (!l.tryLock(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return null;
            }
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("value", client.getId() + ":" + Thread.currentThread().getId());
        facts.put("of", 1);
        facts.put("fencing", fenced ? "redisson-token" : "none");
        return new Grant(key, token, id, id, -1, -1, facts);
    }

    /** {@inheritDoc} False when Redisson says this thread no longer holds it (the lease ran out). */
    @Override
    public boolean release() {
        try {
            lock.unlock();
            return true;
        } catch (IllegalMonitorStateException e) {
            return false;
        }
    }

    @Override
    public void close() {
        // the owner mapping stays: the final inspection may still find this client's lock and must name its owner
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
