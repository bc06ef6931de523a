package io.lockchaos.api.testlocks;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;

/** A user's lock whose constructor fails. */
public final class ThrowingConstructor implements LockFactory {
    public ThrowingConstructor() {
        throw new IllegalStateException("no lock.properties");
    }

    @Override
    public Promises promises() {
        return Promises.exclusive();
    }

    @Override
    public LockClient open(LockContext context) {
        throw new UnsupportedOperationException();
    }
}
