package io.lockchaos.cluster;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads a kernel setting under /proc/sys. Files.readString does not do: on JDK 17 it gave "3" for
 * /proc/sys/net/ipv4/ip_local_port_range ("32768\t60999\n"), since these files report a size of 0 and the kernel's
 * handler answers a read at an offset past the first with nothing, where a stream reads from the start to the end.
 */
final class Sysctl {
    private Sysctl() {
    }

    /** The setting's text, trimmed. */
    static String read(Path file) throws IOException {
        try (InputStream in = new FileInputStream(file.toFile())) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
        }
    }
}
