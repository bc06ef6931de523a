package io.lockchaos.core;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.client.Library;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.UserLock;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads {@code library_version} into a library's recipe, and resolves it when the run starts its client agents: the
 * library's release (from the local repository's cache after the first time) becomes the classpath its agents load.
 * Building a spec only checks that the version is one the resolver may ask for, as {@code curator} and {@code
 * zookeeper} are; the runner never loads the library.
 */
public final class LibraryLocks {
    private LibraryLocks() {
    }

    /** {@code recipe} as a library's recipe (its jars resolved at run time), or itself when it wraps no library. */
    static LockRecipe recipe(String source, LockRecipe recipe, String version) throws SpecException {
        Library library = recipe.kind().library();
        if (library == null) {
            if (!version.isBlank()) {
                throw new SpecException(source + ": library_version: recipe " + recipe.wireName() + " wraps no"
                        + " library (give it with " + LockRecipe.Names.libraries() + ")");
            }
            return recipe;
        }
        if (!version.isBlank() && !VersionResolver.plausible(version)) {
            throw new SpecException(source + ": library_version: " + recipe.wireName() + ": '" + version + "' is not"
                    + " a version (expected e.g. " + library.compiledVersion() + ")");
        }
        return LockRecipe.library(recipe.kind(), List.of());
    }

    /**
     * The lock the run's agents load: a library's factory on the release {@code library_version} names, resolved now,
     * or the user's own lock; null for lockchaos' own recipes.
     *
     * @throws IllegalArgumentException with one line naming {@code library_version} when the release cannot be had
     */
    static UserLock agentsLock(TestSpec spec) {
        UserLock lock = spec.recipe().user();
        Library library = spec.recipe().kind().library();
        if (library == null) {
            return lock;
        }
        String v = spec.text("library_version").isBlank() ? library.compiledVersion() : spec.text("library_version");
        try {
            List<Path> jars = VersionResolver.defaults(VersionResolver.Artifact.of(spec.recipe().kind())).classpath(v);
            return new UserLock(jars.stream().map(Path::toString).toList(), lock.className(), lock.promises(),
                    lock.backend());
        } catch (VersionResolver.UnresolvableVersion e) {
            throw new IllegalArgumentException("library_version: " + e.getMessage());
        }
    }
}
