package io.lockchaos.agent;

import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import java.util.LinkedHashMap;
import java.util.Map;

/** Loads a user's {@link LockFactory} by class name in an agent, turning every way it can fail into one line. */
final class UserFactories {
    private UserFactories() {
    }

    /** Why a user's class cannot serve: the message is the line the user sees. */
    static final class Unusable extends Exception {
        Unusable(String message) {
            super(message);
        }
    }

    /** {@code e} on one line: a user's exception may say more. */
    private static String oneLine(Object e) {
        return String.valueOf(e).replaceAll("\\s*\\R\\s*", " ");
    }

    static LockFactory load(String className) throws Unusable {
        Class<?> c;
        try {
            c = Class.forName(className, true, UserFactories.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new Unusable("lock_class: " + className + " is not on the lock's classpath (lock_jar)");
        } catch (LinkageError e) {
            throw new Unusable("lock_class: " + className + " does not load: " + oneLine(e));
        }
        if (!LockFactory.class.isAssignableFrom(c)) {
            throw new Unusable("lock_class: " + className + " does not implement " + LockFactory.class.getName());
        }
        try {
            return (LockFactory) c.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new Unusable("lock_class: " + className + " has no public constructor without arguments");
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new Unusable("lock_class: " + className + "'s constructor threw " + oneLine(e.getCause()));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            throw new Unusable("lock_class: " + className + " cannot be made: " + oneLine(e));
        }
    }

    /** What the factory says of itself, for the runner: its promises and backend, or the line why it cannot. */
    static Map<String, Object> describe(LockFactory f) {
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            Promises p = f.promises();
            if (p == null) {
                return Map.of("error", "lock_class: " + f.getClass().getName() + ".promises() returned null");
            }
            m.put("promises", p.words());
            if (f.backend() == null) {
                return Map.of("error", "lock_class: " + f.getClass().getName() + ".backend() returned null");
            }
            m.put("backend", f.backend().name());
        } catch (RuntimeException | LinkageError e) {
            return Map.of("error", "lock_class: " + f.getClass().getName() + " cannot say what it promises: "
                    + oneLine(e));
        }
        return m;
    }
}
