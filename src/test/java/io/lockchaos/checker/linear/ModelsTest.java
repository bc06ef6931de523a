package io.lockchaos.checker.linear;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lockchaos.checker.Recipe;
import org.junit.jupiter.api.Test;

/** {@code --model recipe} picks the model of what the recipe promises; the model's name says which one ran. */
class ModelsTest {
    @Test
    void eachRecipeGetsTheModelOfItsPromises() {
        assertEquals("mutex", Models.forRecipe(Recipe.MUTEX).name(), "anyone may release");
        assertEquals("reentrant-mutex", Models.forRecipe(Recipe.REENTRANT_MUTEX).name());
        assertEquals("reentrant-mutex", Models.forRecipe(Recipe.MULTI).name(), "each key a reentrant mutex");
        assertEquals("rw", Models.forRecipe(Recipe.READ_WRITE).name());
        assertEquals("rw", Models.forRecipe(Recipe.queued("q", true)).name(), "read/write before reentrancy");
        assertEquals("owner-mutex", Models.forRecipe(Recipe.lease("redis")).name(), "owner, not reentrant");
        assertEquals("owner-mutex", Models.forRecipe(Recipe.queued("q", false)).name());
        assertEquals("semaphore:3", Models.forRecipe(Recipe.semaphore(3)).name());
        assertEquals("semaphore:1", Models.forRecipe(Recipe.semaphore(1)).name(), "a lease counted, even of one");
    }

    @Test
    void parsedNamesAreTheModelsNames() {
        for (String name : new String[] {"mutex", "owner-mutex", "reentrant-mutex", "rw", "register", "cas-register",
                "semaphore:2"}) {
            assertEquals(name, Models.parse(name).name());
        }
    }

    /** What a counterexample prints for a read/write lock's state: the writer with its reentries, then the readers. */
    @Test
    void aReadWriteStateDescribesItsWriterAndReaders() {
        LockModels.ReadWrite rw = new LockModels.ReadWrite();
        assertEquals("no writer, no readers", rw.describe(rw.init()));
        assertEquals("writer 3, no readers", rw.describe(new LockModels.Rw(3, 1, 0, java.util.List.of())));
        assertEquals("writer 3 x2, readers [3]", rw.describe(new LockModels.Rw(3, 2, 0,
                java.util.List.of(new LockModels.Lease(3, 1, 1)))));
        assertEquals("no writer, readers [1, 2]", rw.describe(new LockModels.Rw(-1, 0, -1,
                java.util.List.of(new LockModels.Lease(1, 0, 1), new LockModels.Lease(2, 1, 2)))));
    }
}
