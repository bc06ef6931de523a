package io.lockchaos.redis;

import io.lockchaos.client.LockService.Inspection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The final inspection of a Redis run: which lock keys are still set, where, whose, and for how long yet. */
public final class RedisInspection {
    private RedisInspection() {
    }

    /** Whether the instance keeps keys of its own: no Sentinel, no replica. */
    private static boolean primary(Instance in) {
        String server = in.jedis().info("server");
        return !server.contains("redis_mode:sentinel") && !in.jedis().info("replication").contains("role:slave");
    }

    /** Every lock key still set on every instance, in one walk: a key cannot move from one list to the other. */
    public static Inspection inspect(List<String> addresses, List<String> keys) {
        List<Map<String, Object>> left = new ArrayList<>();
        List<Map<String, Object>> expiring = new ArrayList<>();
        for (int i = 0; i < addresses.size(); i++) {
            String a = addresses.get(i);
            int colon = a.lastIndexOf(':');
            try (Instance in = new Instance(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1)), 2000)) {
                if (!primary(in)) {
                    continue; // a Sentinel keeps no keys, and a replica's are its primary's again
                }
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
                    (pttl >= 0 ? expiring : left).add(n);
                }
            }
        }
        return new Inspection(left, expiring);
    }
}
