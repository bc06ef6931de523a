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
        assertEquals("owner-mutex", Models.forRecipe(Recipe.redisLease("redis")).name(), "owner, not reentrant");
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
}
