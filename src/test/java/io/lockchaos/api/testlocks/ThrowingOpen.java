package io.lockchaos.api.testlocks;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;

/** A user's lock whose every open fails, as one whose configuration is wrong would. */
public final class ThrowingOpen implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive();
    }

    @Override
    public LockClient open(LockContext context) {
        throw new IllegalStateException("cannot reach the lock service at " + context.connectString());
    }
}
