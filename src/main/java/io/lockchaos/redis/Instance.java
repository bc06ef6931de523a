package io.lockchaos.redis;

import redis.clients.jedis.Jedis;

/**
 * One client's connection to one Redis instance, opened on first use and opened again after it broke (a timeout
 * leaves a Jedis connection unusable). Not thread-safe: one lock client uses it.
 */
final class Instance implements AutoCloseable {
    private final String host;
    private final int port;
    private final int timeoutMillis;
    private Jedis jedis;

    Instance(String host, int port, int timeoutMillis) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = timeoutMillis;
    }

    /** The connection, new when there was none or the last one broke. */
    Jedis jedis() {
        if (jedis != null && jedis.isBroken()) {
            close();
        }
        if (jedis == null) {
            jedis = new Jedis(host, port, timeoutMillis, timeoutMillis);
        }
        return jedis;
    }

    String address() {
        return host + ":" + port;
    }

    @Override
    public void close() {
        if (jedis != null) {
            try {
                jedis.close();
            } catch (RuntimeException e) {
                // a broken connection may fail to close; it is dropped either way
            }
            jedis = null;
        }
    }
}
