package io.lockchaos.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The final inspection of a Redis run: which lock keys are still set, where, whose, and for how long yet. */
public final class RedisInspection {
    private RedisInspection() {
    }

    /**
     * Every lock key still set on any instance without an expiry, as the leak checker reads an inspection: {@code
     * key}, {@code node} ({@code redis-N:key}), {@code owner} (the client id its value begins with), {@code value} and
     * {@code pttl_ms} (-1). A key with a lease still running is no leak: it goes by itself (a failed attempt's key
     * whose release timed out leaves one).
     *
     * @param addresses host:port of every instance, in node order
     * @throws RuntimeException when an instance cannot be asked (the inspection is then incomplete)
     */
    public static List<Map<String, Object>> keysLeft(List<String> addresses, List<String> keys) {
        return keys(addresses, keys, false);
    }

    /** The lock keys still set that expire by themselves (a lease still running): no leak, listed for the record. */
    public static List<Map<String, Object>> keysExpiring(List<String> addresses, List<String> keys) {
        return keys(addresses, keys, true);
    }

    private static List<Map<String, Object>> keys(List<String> addresses, List<String> keys, boolean expiring) {
        List<Map<String, Object>> left = new ArrayList<>();
        for (int i = 0; i < addresses.size(); i++) {
            String a = addresses.get(i);
            int colon = a.lastIndexOf(':');
            try (Instance in = new Instance(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1)), 2000)) {
                for (String key : keys) {
                    String type = in.jedis().type(key);
                    if (type.equals("none")) {
                        continue;
                    }
                    Map<String, Object> n = new LinkedHashMap<>();
                    n.put("key", key);
                    n.put("node", "redis-" + (i + 1) + ":" + key);
                    if (type.equals("hash")) {
                        // Redisson's lock: one field per holding thread, <redisson id>:<thread id> = hold count
                        Map<String, String> fields = in.jedis().hgetAll(key);
                        String field = fields.isEmpty() ? "" : fields.keySet().iterator().next();
                        n.put("owner", RedissonLock.ownerOfField(field));
                        n.put("value", fields.toString());
                    } else {
                        String value = type.equals("string") ? in.jedis().get(key) : type;
                        n.put("owner", RedisLockClient.ownerOf(value));
                        n.put("value", value);
                    }
                    long pttl = in.jedis().pttl(key);
                    n.put("pttl_ms", pttl);
                    if ((pttl >= 0) == expiring) {
                        left.add(n);
                    }
                }
            }
        }
        return left;
    }
}
