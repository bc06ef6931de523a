package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClientLogTest {
    @Test
    void clientLoggingGoesToTheRunFolderUnlessVerboseOrChosen() {
        String saved = System.getProperty(ClientLog.PROPERTY);
        try {
            System.clearProperty(ClientLog.PROPERTY);
            ClientLog.redirect(Path.of("run", "client.log"), true);
            assertNull(System.getProperty(ClientLog.PROPERTY), "--verbose keeps it on the console");
            ClientLog.redirect(Path.of("run", "client.log"), false);
            assertEquals(Path.of("run", "client.log").toAbsolutePath().toString(),
                    System.getProperty(ClientLog.PROPERTY));
            ClientLog.redirect(Path.of("other", "client.log"), false);
            assertEquals(Path.of("run", "client.log").toAbsolutePath().toString(),
                    System.getProperty(ClientLog.PROPERTY), "a target already chosen stays");
        } finally {
            if (saved == null) {
                System.clearProperty(ClientLog.PROPERTY);
            } else {
                System.setProperty(ClientLog.PROPERTY, saved);
            }
        }
    }
}
