package io.lockchaos.core;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.client.Library;
import io.lockchaos.client.LockRecipe;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads {@code library_version} into a library's recipe: the library's release resolved (from the local repository's
 * cache after the first time) into the classpath its client agents load. The runner never loads the library.
 */
public final class LibraryLocks {
    private LibraryLocks() {
    }

    /** {@code recipe} with its library resolved, or {@code recipe} itself when it wraps no library. */
    static LockRecipe resolved(String source, LockRecipe recipe, String version) throws SpecException {
        Library library = recipe.kind().library();
        if (library == null) {
            if (!version.isBlank()) {
                throw new SpecException(source + ": library_version: recipe " + recipe.wireName() + " wraps no"
                        + " library (give it with " + LockRecipe.Names.libraries() + ")");
            }
            return recipe;
        }
        String v = version.isBlank() ? library.compiledVersion() : version;
        try {
            List<Path> jars = VersionResolver.defaults(artifact(recipe.kind())).classpath(v);
            return LockRecipe.library(recipe.kind(), jars.stream().map(Path::toString).toList());
        } catch (VersionResolver.UnresolvableVersion e) {
            throw new SpecException(source + ": library_version: " + e.getMessage());
        }
    }

    /** What the resolver resolves for {@code kind}'s library; its cache is named after the recipe. */
    public static VersionResolver.Artifact artifact(LockRecipe.Kind kind) {
        Library l = kind.library();
        return new VersionResolver.Artifact(kind.wireName(), l.group(), l.artifact(), l.compiledVersion(), l.range(),
                l.alongside());
    }
}
