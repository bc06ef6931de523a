package io.lockchaos.zookeeper;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.LockClient;
import java.util.concurrent.Callable;

/**
 * A Curator recipe's release with lockchaos' check in front of it: whether the lock's node still exists (Curator
 * swallows NoNode on release, so the check is how a lost lock shows). The check is lockchaos', not the application's,
 * so it must not change what the release does: when it fails (a connection loss) the recipe's release runs all the
 * same, as an application's would, and what it found is unknown; and the danger point comes after it, so a pause or a
 * cut at the release point meets the recipe's own requests.
 */
final class CheckedRelease {
    /** The recipe's release itself. */
    @FunctionalInterface
    interface Release {
        void run() throws Exception;
    }

    private CheckedRelease() {
    }

    /** Checks with {@code present}, reaches {@code danger}, then runs {@code release}; says what the check found. */
    static LockClient.Release run(Callable<Boolean> present, DangerPoint danger, Release release) throws Exception {
        Boolean found;
        try {
            found = present.call();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            found = null;
        }
        danger.reach();
        release.run();
        return found == null ? LockClient.Release.UNKNOWN : found ? LockClient.Release.HELD : LockClient.Release.GONE;
    }
}
