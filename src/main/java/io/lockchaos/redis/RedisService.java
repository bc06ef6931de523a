package io.lockchaos.redis;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Redis as a lock service: independent instances of Debian's redis-server, and the locks of this package on them. */
public final class RedisService implements LockService {
    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public String servers() {
        return "Redis instance(s)";
    }

    @Override
    public LockFactory factory(LockRecipe recipe) {
        return new RedisLockFactory(recipe);
    }

    @Override
    public boolean takesExistingServers() {
        return false;
    }

    @Override
    public String missing() {
        return RedisServers.findExecutable() == null ? RedisServers.MISSING : null;
    }

    @Override
    public Map<String, String> versions() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("redis", RedisServers.version());
        v.put("jedis", "8.0.2");
        return v;
    }

    @Override
    public Inspection inspect(String connect, List<String> keys) {
        RedisInspection.Found f = RedisInspection.inspect(List.of(connect.split(",")), keys);
        return new Inspection(f.left(), f.expiring());
    }
}
