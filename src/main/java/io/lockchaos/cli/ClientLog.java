package io.lockchaos.cli;

import java.nio.file.Path;

/**
 * Where Curator's and ZooKeeper's own logging goes during a run: into {@code client.log} in the run's folder, so the
 * console shows lockchaos' lines only. slf4j-simple reads its target once, when the first logger is made, so this must
 * run before any client exists; a target the user set ({@code -Dorg.slf4j.simpleLogger.logFile}) is left alone.
 */
final class ClientLog {
    static final String PROPERTY = "org.slf4j.simpleLogger.logFile";

    private ClientLog() {
    }

    /** Sends client logging to {@code file}, unless {@code verbose} or the user chose a target. */
    static void redirect(Path file, boolean verbose) {
        if (verbose || System.getProperty(PROPERTY) != null) {
            return;
        }
        System.setProperty(PROPERTY, file.toAbsolutePath().toString());
    }
}
