package io.lockchaos.redis;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.RecipeFactory;

/**
 * A Redis recipe as a {@link LockFactory}. A Redis lock has no session: the client's id stands for one, in the
 * history and in the final inspection, and the run's instances are the context's endpoints, in node order.
 */
public final class RedisLockFactory extends RecipeFactory {
    public RedisLockFactory(LockRecipe recipe) {
        super(recipe, Backend.REDIS);
    }

    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public LockClient open(LockContext ctx) {
        LockClient lock = RedisLocks.open(recipe, ctx.key(), ctx.endpoints(), ctx.routes(), ctx.settings(),
                ctx.lease().toMillis(),
                (int) ctx.requestTimeout().toMillis());
        long id = RedisLocks.idOf(lock);
        ctx.session(() -> id, () -> null);
        return lock;
    }
}
