package io.lockchaos.checker.linear;

import io.lockchaos.checker.Recipe;

/** Factories for the built-in models, by command-line name. */
public final class Models {
    private Models() {
    }

    public static Model<?> mutex() {
        return new LockModels.Mutex();
    }

    public static Model<?> ownerMutex() {
        return new LockModels.OwnerMutex(false);
    }

    public static Model<?> reentrantMutex() {
        return new LockModels.OwnerMutex(true);
    }

    public static Model<?> semaphore(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("model: semaphore permits must be >= 1, got " + permits);
        }
        return new LockModels.Semaphore(permits);
    }

    public static Model<?> readWrite() {
        return new LockModels.ReadWrite();
    }

    /**
     * The model of what {@code recipe} promises: a semaphore of its leases, a read/write lock (reentrant), a
     * reentrant mutex, a mutex only its holder may release, or a mutex anyone may release.
     */
    public static Model<?> forRecipe(Recipe recipe) {
        if (recipe.isSemaphore()) {
            return semaphore(recipe.capacity());
        }
        if (recipe.readWrite()) {
            return readWrite();
        }
        if (recipe.reentrant()) {
            return reentrantMutex();
        }
        return recipe.ownerRelease() ? ownerMutex() : mutex();
    }

    public static Model<?> register() {
        return new RegisterModels.Register(false);
    }

    public static Model<?> casRegister() {
        return new RegisterModels.Register(true);
    }

    /**
     * Parses {@code mutex | owner-mutex | reentrant-mutex | semaphore:N | rw | register | cas-register}.
     *
     * @throws IllegalArgumentException with a one-line message naming the accepted names
     */
    public static Model<?> parse(String s) {
        switch (s) {
            case "mutex": return mutex();
            case "owner-mutex": return ownerMutex();
            case "reentrant-mutex": return reentrantMutex();
            case "rw": return readWrite();
            case "register": return register();
            case "cas-register": return casRegister();
            default:
                if (s.startsWith("semaphore:")) {
                    try {
                        return semaphore(Integer.parseInt(s.substring("semaphore:".length())));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("model: semaphore permits must be a whole number, got '"
                                + s.substring("semaphore:".length()) + "'");
                    }
                }
                throw new IllegalArgumentException("model: unknown model '" + s + "' (expected mutex, owner-mutex,"
                        + " reentrant-mutex, semaphore:N, rw, register or cas-register; check also takes recipe)");
        }
    }
}
