package io.lockchaos.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** ZooKeeper's four-letter commands (srvr, mntr, dump, cons, ruok) over a plain socket. */
public final class FourLetterWords {
    private FourLetterWords() {
    }

    /** Sends {@code cmd} and returns the whole reply. */
    public static String send(String host, int port, String cmd, int timeoutMillis) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            s.getOutputStream().write(cmd.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /** The server's mode (leader, follower, observer, standalone), or empty when it does not serve. */
    public static Optional<String> mode(ZkNode n, int timeoutMillis) {
        try {
            String reply = send(n.host(), n.clientPort(), "srvr", timeoutMillis);
            for (String line : reply.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return Optional.of(line.substring("Mode: ".length()).trim());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
