package io.lockchaos.client;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import java.util.function.Predicate;

/** A factory of one of lockchaos' own recipes: it promises what the recipe promises. */
public abstract class RecipeFactory implements LockFactory {
    protected final LockRecipe recipe;

    /**
     * @param serves whether this factory opens clients of a recipe; one it does not serve is refused
     * @param what what the factory serves, for the refusal
     */
    protected RecipeFactory(LockRecipe recipe, Predicate<LockRecipe> serves, String what) {
        if (recipe.user() != null || !serves.test(recipe)) {
            throw new IllegalArgumentException(recipe.wireName() + " is not a recipe on " + what);
        }
        this.recipe = recipe;
    }

    /** A factory of the recipes on {@code backend}. */
    protected RecipeFactory(LockRecipe recipe, Backend backend) {
        this(recipe, r -> r.backend() == backend, backend.name());
    }

    @Override
    public Promises promises() {
        return recipe.promises().promises();
    }
}
