package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerNode;
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
    public static Optional<String> mode(ServerNode n, int timeoutMillis) {
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

    /**
     * Asks every server its mode ({@code down} when it does not answer within 500 ms), puts the answers in {@code
     * modes} (cleared first), and says whether the ensemble serves: one standalone server, or one leader and the rest
     * followers.
     */
    public static boolean serving(java.util.List<ServerNode> nodes, java.util.Map<Integer, String> modes) {
        modes.clear();
        int leaders = 0;
        int followers = 0;
        int standalone = 0;
        for (ServerNode n : nodes) {
            String m = mode(n, 500).orElse("down");
            modes.put(n.id(), m);
            leaders += m.equals("leader") ? 1 : 0;
            followers += m.equals("follower") ? 1 : 0;
            standalone += m.equals("standalone") ? 1 : 0;
        }
        return nodes.size() == 1 ? standalone == 1 : leaders == 1 && followers == nodes.size() - 1;
    }
}
