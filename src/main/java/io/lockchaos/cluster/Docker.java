package io.lockchaos.cluster;

import org.testcontainers.DockerClientFactory;

/** Whether this machine can run containers, as Testcontainers sees it. */
public final class Docker {
    private static final String QUIET = "org.slf4j.simpleLogger.log.org.testcontainers";

    private Docker() {
    }

    /**
     * Whether a Docker engine answers (Testcontainers' {@code isDockerAvailable()}: its usual search of DOCKER_HOST,
     * the Unix socket, ~/.testcontainers.properties and so on). Returns false, never throws, when there is none; on a
     * machine without an engine this takes well under a second, and later calls return at once.
     */
    public static boolean available() {
        // Testcontainers logs a page of errors when it finds no engine; the one-line answer is enough. Set before
        // its first logger exists, and only where the user has not chosen a level.
        if (System.getProperty(QUIET) == null) {
            System.setProperty(QUIET, "off");
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
