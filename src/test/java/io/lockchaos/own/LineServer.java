package io.lockchaos.own;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** A server of a lock's own for the tests: listens on HOST PORT and answers each connection's bytes with {@code ok}. */
public final class LineServer {
    private LineServer() {
    }

    public static void main(String[] args) throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])));
            while (true) {
                Socket s = listener.accept();
                Thread t = new Thread(() -> {
                    try (s) {
                        while (s.getInputStream().read() >= 0) {
                            s.getOutputStream().write("ok\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        }
                    } catch (IOException e) {
                        // the client went away
                    }
                });
                t.setDaemon(true);
                t.start();
            }
        }
    }

    /** The command that runs it from the test classes, as a lock's {@code LockServers.command} would. */
    static java.util.List<String> command(io.lockchaos.cluster.ServerNode n) {
        return new io.lockchaos.api.ServerSlot(n.id(), n.host(), n.clientPort(), n.dataDir(), java.util.List.of(),
                java.util.List.of(System.getProperty("java.class.path")), java.util.Map.of())
                .java(LineServer.class.getName(), n.host(), Integer.toString(n.clientPort()));
    }
}
