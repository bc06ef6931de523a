package io.lockchaos.client;

import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;

/** A factory of one of lockchaos' own recipes: it promises what the recipe promises. */
public abstract class RecipeFactory implements LockFactory {
    protected final LockRecipe recipe;

    /**
     * @param backend the backend this factory opens clients on; a recipe of another is refused
     */
    protected RecipeFactory(LockRecipe recipe, LockRecipe.Backend backend) {
        if (recipe.backend() != backend || recipe.user() != null) {
            throw new IllegalArgumentException(recipe.wireName() + " is not a recipe on " + backend);
        }
        this.recipe = recipe;
    }

    @Override
    public Promises promises() {
        return LockRecipe.promisesOf(recipe.promises());
    }
}
