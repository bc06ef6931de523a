package com.example.lock;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;

/** The wrapper as first written: it logs connection states and carries on holding whatever they say. */
public final class IgnoringLockFactory implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withReentry().withOwnerOnlyRelease().withFifo(); // InterProcessMutex's
    }

    @Override
    public LockClient open(LockContext context) throws Exception {
        return new CuratorWrapper(context, false);
    }
}
