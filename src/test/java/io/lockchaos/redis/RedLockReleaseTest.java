package io.lockchaos.redis;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A release with nothing granted (an application's finally after an acquire that threw, the interrupt fault's
 * {@code release=1}) says not-held: before, it asked every instance to delete a null value and reported them all
 * unanswered, an unknown release a hunt took for a non-holder's.
 */
class RedLockReleaseTest {
    @Test
    void aReleaseWithNothingGrantedSaysNotHeldWithoutAskingAnyInstance() throws Exception {
        RedLock lock = new RedLock("/k", List.of("127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"), 1000, 100);
        try {
            assertFalse(lock.release());
        } finally {
            lock.close();
        }
    }
}
