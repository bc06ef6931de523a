package io.lockchaos.redis;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.cluster.Cluster;
import java.io.IOException;
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
    public Cluster start(ServerPlan plan) throws IOException {
        // Redisson's watchdog renews the lease from the client: a paused client's renewals must stop with it
        boolean renew = plan.recipe().kind() == LockRecipe.Kind.REDISSON
                || plan.recipe().kind() == LockRecipe.Kind.REDISSON_FENCED;
        return RedisServers.builder(plan.folder()).size(plan.nodes())
                .appendOnly(Boolean.TRUE.equals(plan.setting("redis_appendonly"))).clockShift(plan.clockShift())
                .clientsRenew(renew).build();
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
