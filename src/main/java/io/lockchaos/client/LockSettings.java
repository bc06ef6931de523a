package io.lockchaos.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a lock client is opened with, the same wherever it runs: the runner builds it from the spec, sends it to an
 * agent as part of an {@code open} request and the agent reads it back, so an in-process client and an agent's see
 * the same values. The defaults are the workload declaration's (session_timeout_ms 4000, lease_ms 10000,
 * redis_timeout_ms 100): a request that leaves a value out gets what a workload file that leaves it out gets.
 *
 * @param connect the servers as one connect string, each address routed through a proxy
 * @param key the lock's name
 * @param read for a read/write lock, whether the client takes the read side
 * @param allKeys every lock name of the run, for a lock that takes them all at once
 * @param sessionTimeoutMillis the session timeout the run asks for
 * @param leaseMillis for a leased lock, the lease the run asks for
 * @param requestTimeoutMillis for a lock on several instances, how long one instance may take to answer
 * @param options the workload's {@code lock_settings}: names and values a lock of the user's own reads as it likes
 * @param leaseAsked whether the workload gave {@code lease_ms} (else {@code leaseMillis} is the declaration's)
 * @param servers the servers' own addresses, in the order of {@code connect}, or null when the run did not say them
 *     (then {@code connect} is how they name themselves too)
 */
public record LockSettings(String connect, String key, boolean read, List<String> allKeys, long sessionTimeoutMillis,
                           long leaseMillis, long requestTimeoutMillis, Map<String, String> options,
                           boolean leaseAsked, String servers) {
    /** The declaration's default session timeout (the workload key {@code session_timeout_ms}). */
    public static final long SESSION_TIMEOUT_MS = 4_000;
    /** The declaration's default lease ({@code lease_ms}). */
    public static final long LEASE_MS = 10_000;
    /** The declaration's default per-instance timeout ({@code redis_timeout_ms}). */
    public static final long REQUEST_TIMEOUT_MS = 100;

    public LockSettings {
        allKeys = List.copyOf(allKeys);
        options = options == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
    }

    public LockSettings(String connect, String key, boolean read, List<String> allKeys, long sessionTimeoutMillis,
                        long leaseMillis, long requestTimeoutMillis) {
        this(connect, key, read, allKeys, sessionTimeoutMillis, leaseMillis, requestTimeoutMillis, Map.of(), true);
    }

    public LockSettings(String connect, String key, boolean read, List<String> allKeys, long sessionTimeoutMillis,
                        long leaseMillis, long requestTimeoutMillis, Map<String, String> options, boolean leaseAsked) {
        this(connect, key, read, allKeys, sessionTimeoutMillis, leaseMillis, requestTimeoutMillis, options, leaseAsked,
                null);
    }

    /**
     * Each server's own address mapped to the client's way to it through {@code connect} (its proxy), in order;
     * empty when the servers' addresses were not said or do not pair up with {@code connect}.
     */
    public Map<String, String> routes() {
        if (servers == null || connect == null) {
            return Map.of();
        }
        String[] own = servers.split(",");
        String[] via = connect.split(",");
        if (own.length != via.length) {
            return Map.of();
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < own.length; i++) {
            m.put(own[i], via[i]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * How long a connection attempt may take: half the session timeout, at least a second (Curator's and
     * ZooKeeper's clients would otherwise give up before a session could be established on a loaded machine).
     */
    public Duration connectionTimeout() {
        return Duration.ofMillis(Math.max(1000, sessionTimeoutMillis / 2));
    }

    /** These settings as the fields of an agent's {@code open} request. */
    public Map<String, Object> toWire() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("connect", connect);
        m.put("key", key);
        m.put("read", read);
        m.put("keys", allKeys);
        m.put("session_timeout_ms", sessionTimeoutMillis);
        if (leaseAsked) {
            m.put("lease_ms", leaseMillis); // left out, the agent's lock sees the declaration's and no lease asked
        }
        m.put("request_timeout_ms", requestTimeoutMillis);
        if (!options.isEmpty()) {
            m.put("lock_settings", options);
        }
        if (servers != null) {
            m.put("servers", servers);
        }
        return m;
    }

    /** The settings an {@code open} request carries; a value it leaves out is the declaration's default. */
    public static LockSettings fromWire(Map<String, Object> m) {
        List<String> keys = new ArrayList<>();
        if (m.get("keys") instanceof List<?> l) {
            for (Object k : l) {
                keys.add(String.valueOf(k));
            }
        }
        Map<String, String> options = new LinkedHashMap<>();
        if (m.get("lock_settings") instanceof Map<?, ?> o) {
            o.forEach((k, v) -> options.put(String.valueOf(k), String.valueOf(v)));
        }
        return new LockSettings(m.get("connect") instanceof String c ? c : null,
                m.get("key") instanceof String k ? k : null, Boolean.TRUE.equals(m.get("read")), keys,
                number(m, "session_timeout_ms", SESSION_TIMEOUT_MS), number(m, "lease_ms", LEASE_MS),
                number(m, "request_timeout_ms", REQUEST_TIMEOUT_MS), options, m.get("lease_ms") instanceof Number,
                m.get("servers") instanceof String s ? s : null);
    }

    private static long number(Map<String, Object> m, String name, long otherwise) {
        return m.get(name) instanceof Number n ? n.longValue() : otherwise;
    }
}
