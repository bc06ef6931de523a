package io.lockchaos.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback TCP server that echoes every byte back and closes its side when the client does: the test upstream. */
final class EchoServer implements AutoCloseable {
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();

    private EchoServer(ServerSocket server) {
        this.server = server;
    }

    static EchoServer start() throws IOException {
        EchoServer echo = new EchoServer(new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1")));
        Threads.start("echo-accept", echo::acceptLoop);
        return echo;
    }

    /** Returns {@code 127.0.0.1:port}, the form Toxiproxy takes as an upstream. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Returns how many connections this server has accepted. */
    int accepted() {
        return accepted.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                accepted.incrementAndGet();
                sockets.add(s);
                Threads.start("echo", () -> echo(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void echo(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // the client went away: nothing to echo to
        } finally {
            sockets.remove(s);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
