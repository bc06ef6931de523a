package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClientLogTest {
    @Test
    void clientLoggingGoesToTheRunFolderUnlessVerboseOrChosen() {
        String saved = System.getProperty(ClientLog.PROPERTY);
        java.util.logging.Logger root = java.util.logging.LogManager.getLogManager().getLogger("");
        java.util.logging.Handler[] handlers = root.getHandlers();
        try {
            System.clearProperty(ClientLog.PROPERTY);
            ClientLog.redirect(Path.of("run", "client.log"), true);
            assertNull(System.getProperty(ClientLog.PROPERTY), "--verbose keeps it on the console");
            ClientLog.redirect(Path.of("run", "client.log"), false);
            assertEquals(Path.of("run", "client.log").toAbsolutePath().toString(),
                    System.getProperty(ClientLog.PROPERTY));
            // java.util.logging (Curator's shaded Guava) goes the same way, not to the console
            assertEquals(1, root.getHandlers().length);
            assertFalse(root.getHandlers()[0] instanceof java.util.logging.ConsoleHandler);
            ClientLog.redirect(Path.of("other", "client.log"), false);
            assertEquals(Path.of("run", "client.log").toAbsolutePath().toString(),
                    System.getProperty(ClientLog.PROPERTY), "a target already chosen stays");
        } finally {
            for (java.util.logging.Handler h : root.getHandlers()) {
                root.removeHandler(h);
            }
            for (java.util.logging.Handler h : handlers) {
                root.addHandler(h);
            }
            if (saved == null) {
                System.clearProperty(ClientLog.PROPERTY);
            } else {
                System.setProperty(ClientLog.PROPERTY, saved);
            }
        }
    }
}
