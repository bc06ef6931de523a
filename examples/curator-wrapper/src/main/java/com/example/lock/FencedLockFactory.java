package com.example.lock;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;

/** The wrapper fixed: it stops holding at SUSPENDED (as Curator's documentation asks) and fences its writes. */
public final class FencedLockFactory implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withReentry().withOwnerOnlyRelease().withFifo();
    }

    @Override
    public LockClient open(LockContext context) throws Exception {
        return new CuratorWrapper(context, true);
    }
}
