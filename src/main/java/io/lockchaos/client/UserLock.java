package io.lockchaos.client;

import io.lockchaos.api.Backend;
import io.lockchaos.api.Promises;
import java.util.List;

/**
 * A lock from the user's own jar: the {@link io.lockchaos.api.LockFactory} class that makes its clients, the classpath
 * it loads from (in client agents, never in the runner's JVM), and what the factory said of itself when the run
 * asked it.
 *
 * @param classpath the user's jars and folders, in order ({@code --lock-jar}, separated by the path separator)
 * @param className the factory's class ({@code --lock-class})
 * @param promises what the factory promises
 * @param backend the servers it runs on
 */
public record UserLock(List<String> classpath, String className, Promises promises, Backend backend) {
    public UserLock {
        classpath = List.copyOf(classpath);
        if (className == null || className.isBlank()) {
            throw new IllegalArgumentException("lock_class: no class named");
        }
    }
}
