package io.lockchaos.redis;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the Redis locks share: one connection per instance, this client's id (recorded as the grant's session and
 * owner, and at the start of every lock value, so the final inspection can say whose a key is), and the grant they
 * record. A Redis lock has no fencing token: grants carry the lock's value instead, and no {@code token}.
 */
abstract class RedisLockClient implements LockClient {
    private static final AtomicLong IDS = new AtomicLong();

    protected final String key;
    protected final List<Instance> instances;
    protected final long leaseMillis;
    /** This client's id: positive and unique within the runner's JVM. */
    protected final long id = IDS.incrementAndGet();
    private long acquires;
    /** Tries (values written) since this client's last grant: what a polling lock costs its service per grant. */
    private long tries;
    /** When the current grant's validity ends by this client's clock; never, for a client that learns none. */
    private long validUntilNanos = Long.MAX_VALUE;

    RedisLockClient(String key, List<String> addresses, long leaseMillis, int timeoutMillis) {
        this.key = key;
        this.leaseMillis = leaseMillis;
        List<Instance> list = new ArrayList<>();
        for (String a : addresses) {
            int colon = a.lastIndexOf(':');
            list.add(new Instance(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1)), timeoutMillis));
        }
        this.instances = List.copyOf(list);
    }

    long id() {
        return id;
    }

    /** A value no other acquire uses: this client's id, a counter and randomness, as Redlock asks. */
    protected String newValue() {
        tries++;
        return id + ":" + (++acquires) + ":" + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current()
                .nextLong());
    }

    /** The client id a lock value begins with, or 0 for a value this project did not write. */
    static long ownerOf(String value) {
        if (value == null) {
            return 0;
        }
        int colon = value.indexOf(':');
        try {
            return colon > 0 ? Long.parseLong(value.substring(0, colon)) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    protected int quorum() {
        return instances.size() / 2 + 1;
    }

    protected Grant grant(String value, int granted, long validityMillis) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("value", value);
        if (granted >= 0) {
            facts.put("instances", granted); // the tutorial's tryLock does not say how many granted
        }
        facts.put("of", instances.size());
        if (validityMillis >= 0) {
            facts.put("validity_ms", validityMillis);
        }
        facts.put("fencing", "none");
        facts.put("tries", tries); // timed-out acquires' tries included: the total is what every grant cost
        tries = 0;
        return new Grant(key, -1, id, id, -1, -1, facts);
    }

    /** Records when the grant just made stops being valid (its lease less the drift allowance). */
    protected void validUntil(long nanos) {
        validUntilNanos = nanos;
    }

    @Override
    public boolean stillHolds() {
        return System.nanoTime() < validUntilNanos;
    }

    @Override
    public long validUntilNanos() {
        return validUntilNanos;
    }

    protected static void pause(long millis) throws InterruptedException {
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }

    @Override
    public void close() {
        for (Instance i : instances) {
            i.close();
        }
    }
}
