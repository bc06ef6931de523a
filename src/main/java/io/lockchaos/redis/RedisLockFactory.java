package io.lockchaos.redis;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import io.lockchaos.client.LockRecipe;

/**
 * A Redis recipe as a {@link LockFactory}. A Redis lock has no session: the client's id stands for one, in the
 * history and in the final inspection, and the run's instances are the context's endpoints, in node order.
 */
public final class RedisLockFactory implements LockFactory {
    private final LockRecipe recipe;

    public RedisLockFactory(LockRecipe recipe) {
        if (!recipe.redis()) {
            throw new IllegalArgumentException(recipe.wireName() + " is not a Redis recipe");
        }
        this.recipe = recipe;
    }

    @Override
    public Promises promises() {
        return LockRecipe.promisesOf(recipe.promises());
    }

    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public LockClient open(LockContext ctx) {
        LockClient lock = RedisLocks.open(recipe, ctx.key(), ctx.endpoints(), ctx.lease().toMillis(),
                (int) ctx.requestTimeout().toMillis());
        long id = RedisLocks.idOf(lock);
        ctx.session(() -> id, () -> null);
        return lock;
    }
}
