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
 * lock_backend}) into a recipe. What the lock promises and runs on is asked of its factory, in a JVM of the agents'
 * classpath (the runner never loads the user's classes), unless the keys say it (a stored run's test.json does, so
 * that its history can be checked again without the jar).
 */
final class UserLocks {
    private UserLocks() {
    }

    static LockRecipe recipe(String source, Map<String, String> m) throws SpecException {
        String recipe = m.get("recipe");
        if (!recipe.equals(LockRecipe.Kind.USER.wireName()) && !recipe.equals(Keys.named("recipe").defaultText())) {
            throw new SpecException(source + ": recipe: '" + recipe + "' and lock_class both name the lock under test:"
                    + " give one");
        }
        if (!m.get("library_version").isBlank()) {
            throw new SpecException(source + ": library_version: a lock from your jar brings its library in lock_jar"
                    + " (drop library_version)");
        }
        String className = m.get("lock_class");
        List<String> classpath = classpath(source, m.get("lock_jar"));
        String words = m.get("lock_promises");
        String backend = m.get("lock_backend");
        if (words.isEmpty() || backend.isEmpty()) {
            Map<String, Object> said = ask(source, classpath, className);
            words = words.isEmpty() ? (String) said.get("promises") : words;
            backend = backend.isEmpty() ? (String) said.get("backend") : backend;
        }
        Promises promises;
        try {
            promises = Promises.parse(words);
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": lock_promises: " + e.getMessage());
        }
        Backend b;
        try {
            b = Backend.valueOf(backend.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": lock_backend: expected zookeeper, redis or postgres, got '" + backend
                    + "'");
        }
        return LockRecipe.user(new UserLock(classpath, className, promises, b));
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
