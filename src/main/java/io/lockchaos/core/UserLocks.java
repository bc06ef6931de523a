package io.lockchaos.core;

import io.lockchaos.agent.AgentLauncher;
import io.lockchaos.api.Backend;
import io.lockchaos.api.Promises;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.UserLock;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the lock-from-your-jar keys ({@code lock_class}, {@code lock_jar}, {@code lock_promises}, {@code
 * lock_backend}) into a recipe. What the lock promises and runs on is asked of its factory when its keys are read, in
 * a JVM of the agents' classpath (the runner never loads the user's classes), unless the keys say it (a stored run's
 * test.json does, so that its history can be checked again without the jar); building the recipe starts nothing.
 */
final class UserLocks {
    private UserLocks() {
    }

    /**
     * Puts what the lock promises and runs on into {@code m} ({@code lock_promises}, {@code lock_backend}), asked of
     * its factory where {@code m} does not say it. This is what reading a lock's keys starts, a JVM on the lock's
     * classpath, once per lock: the spec keeps the answer, and a spec is built from keys without starting anything.
     */
    static void declare(String source, Map<String, String> m) throws SpecException {
        String recipe = m.get("recipe");
        if (!recipe.equals(LockRecipe.Kind.USER.wireName()) && !recipe.equals(Keys.named("recipe").defaultText())) {
            throw new SpecException(source + ": recipe: '" + recipe + "' and lock_class both name the lock under test:"
                    + " give one");
        }
        if (!m.get("library_version").isBlank()) {
            throw new SpecException(source + ": library_version: a lock from your jar brings its library in lock_jar"
                    + " (drop library_version)");
        }
        List<String> classpath = classpath(source, m.get("lock_jar"));
        if (m.get("lock_promises").isEmpty() || m.get("lock_backend").isEmpty()) {
            Map<String, Object> said = ask(source, classpath, m.get("lock_class"));
            if (m.get("lock_promises").isEmpty()) {
                m.put("lock_promises", (String) said.get("promises"));
            }
            if (m.get("lock_backend").isEmpty()) {
                m.put("lock_backend", (String) said.get("backend"));
            }
        }
    }

    /** The lock its declared keys name; it starts nothing ({@link #declare} has asked what they did not say). */
    static LockRecipe recipe(String source, Map<String, String> m) throws SpecException {
        Promises promises;
        try {
            promises = Promises.parse(m.get("lock_promises"));
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": lock_promises: " + e.getMessage());
        }
        String backend = m.get("lock_backend");
        Backend b;
        try {
            b = Backend.valueOf(backend.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": lock_backend: expected one of " + java.util.Arrays.stream(
                    Backend.values()).map(v -> v.name().toLowerCase(Locale.ROOT)).toList() + ", got '" + backend + "'");
        }
        return LockRecipe.user(new UserLock(classpath(source, m.get("lock_jar")), m.get("lock_class"), promises, b));
    }

    /** The entries of {@code lock_jar}; each must exist (a {@code dir/*} entry: its folder). */
    private static List<String> classpath(String source, String text) throws SpecException {
        if (text.isBlank()) {
            throw new SpecException(source + ": lock_jar: lock_class needs the classpath it loads from (--lock-jar)");
        }
        List<String> out = new ArrayList<>();
        for (String e : text.split(File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            Path p = Path.of(e.endsWith("/*") ? e.substring(0, e.length() - 2) : e);
            if (!Files.exists(p)) {
                throw new SpecException(source + ": lock_jar: " + e + ": no such file or folder");
            }
            out.add(e);
        }
        return out;
    }

    private static Map<String, Object> ask(String source, List<String> classpath, String className)
            throws SpecException {
        Map<String, Object> said;
        try {
            Path log = Files.createTempFile("lockchaos-lock-class", ".log");
            said = AgentLauncher.describe(classpath, className, log);
            Files.deleteIfExists(log); // kept when the JVM said nothing: the message names it
        } catch (IOException e) {
            throw new SpecException(source + ": lock_class: " + className + " could not be asked what it promises: "
                    + e.getMessage());
        }
        if (said.get("error") != null) {
            throw new SpecException(source + ": " + said.get("error"));
        }
        return said;
    }
}
