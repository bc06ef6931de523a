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
        toSlf4j();
    }

    /**
     * java.util.logging to slf4j as well: Curator's shaded Guava logs through it (a lease's close interrupted at the
     * end of a hunt's run printed its stack trace on the console).
     */
    private static void toSlf4j() {
        java.util.logging.Logger root = java.util.logging.LogManager.getLogManager().getLogger("");
        for (java.util.logging.Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        root.addHandler(new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() < java.util.logging.Level.INFO.intValue()) {
                    return;
                }
                org.slf4j.Logger to = org.slf4j.LoggerFactory.getLogger(String.valueOf(r.getLoggerName()));
                String msg = new java.util.logging.SimpleFormatter().formatMessage(r);
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    to.warn(msg, r.getThrown());
                } else {
                    to.info(msg, r.getThrown());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }
}
