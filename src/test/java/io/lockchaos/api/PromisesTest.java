package io.lockchaos.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.client.LockRecipe;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A lock's promises, as a user states them, as test.json keeps them, and as the checkers read them. */
class PromisesTest {
    @Test
    void wordsReadBackToTheSamePromises() {
        for (Promises p : List.of(Promises.exclusive(), Promises.semaphore(1), Promises.semaphore(5),
                Promises.exclusive().withReentry().withOwnerOnlyRelease().withFifo(),
                Promises.exclusive().withReadWrite().withReentry().withOwnerOnlyRelease().withFifo(),
                Promises.exclusive().withOwnerOnlyRelease().withLease())) {
            assertEquals(p, Promises.parse(p.words()), p.words());
        }
        assertEquals("exclusive reentrant owner-release fifo",
                Promises.exclusive().withFifo().withOwnerOnlyRelease().withReentry().words());
    }

    @Test
    void eachBuiltInRecipesPromisesSayWhatItsCheckerRecipeSays() {
        for (LockRecipe.Kind k : LockRecipe.Kind.values()) {
            if (k == LockRecipe.Kind.USER) {
                continue;
            }
            LockRecipe r = k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(3) : LockRecipe.of(k);
            Promises p = r.promises().promises();
            io.lockchaos.checker.Recipe back = LockRecipe.user(new io.lockchaos.client.UserLock(List.of("x.jar"),
                    r.wireName(), p, Backend.ZOOKEEPER)).promises();
            assertEquals(r.promises(), back, "a user's lock promising what " + r + " promises is checked alike");
        }
    }

    @Test
    void impossiblePromisesAreRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Promises.semaphore(2).withFifo()).getMessage()
                .contains("a semaphore (2 permits) promises no"));
        assertEquals("permits must be at least 1, got 0", assertThrows(IllegalArgumentException.class,
                () -> Promises.semaphore(0)).getMessage());
        assertEquals("promises: unknown word 'fair' (expected read-write, reentrant, owner-release, fifo, leased or"
                + " leadership)",
                assertThrows(IllegalArgumentException.class, () -> Promises.parse("exclusive fair")).getMessage());
        assertEquals("leadership has no read/write sides and no reentry", assertThrows(IllegalArgumentException.class,
                () -> Promises.exclusive().withLeadership().withReentry()).getMessage());
        assertEquals(Promises.exclusive().withOwnerOnlyRelease().withLeadership(),
                Promises.parse("exclusive owner-release leadership"));
        assertEquals("promises: expected 'exclusive' or 'semaphore:N' first, got 'mutex'",
                assertThrows(IllegalArgumentException.class, () -> Promises.parse("mutex")).getMessage());
    }
}
