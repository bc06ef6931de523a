package io.lockchaos.client;

import io.lockchaos.api.Backend;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The registered lock services, one per {@link Backend}: found on the class path through {@link ServiceLoader}, so that
 * adding a service touches no code outside its own package but its name in {@link Backend} and its registration line.
 */
public final class LockServices {
    private static final Map<Backend, LockService> ALL = load();

    private LockServices() {
    }

    private static Map<Backend, LockService> load() {
        Map<Backend, LockService> all = new EnumMap<>(Backend.class);
        for (LockService s : ServiceLoader.load(LockService.class, LockServices.class.getClassLoader())) {
            LockService before = all.put(s.backend(), s);
            if (before != null && before.getClass() != s.getClass()) {
                throw new IllegalStateException("two lock services say they are " + s.backend() + ": "
                        + before.getClass().getName() + " and " + s.getClass().getName());
            }
        }
        return all;
    }

    /** The service of {@code backend}. */
    public static LockService of(Backend backend) {
        LockService s = ALL.get(backend);
        if (s == null) {
            throw new IllegalStateException("no lock service is registered for " + backend + " (META-INF/services/"
                    + LockService.class.getName() + ")");
        }
        return s;
    }

    /** The service {@code recipe} runs on. */
    public static LockService of(LockRecipe recipe) {
        return of(recipe.backend());
    }

    /** Every registered service, in {@link Backend}'s order. */
    public static Collection<LockService> all() {
        return ALL.values();
    }
}
