package com.example.lock;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * A team's own lock server, the kind a lock of one's own runs on: leases by key, each grant with a token from a
 * counter, over one line of text per request. {@code ACQUIRE key owner ttl_ms} answers {@code OK token} or {@code
 * BUSY}; {@code RELEASE key owner} answers {@code OK} or {@code GONE}; {@code HELD key} answers {@code HELD owner ms}
 * or {@code FREE}.
 *
 * <p>Run as {@code LeaseServer HOST PORT FOLDER memory|durable}. In {@code memory} it keeps its leases and its counter
 * in memory only, so a restarted server has forgotten both; {@code durable} writes them to {@code FOLDER/leases.txt}
 * (and forces it to disk) before it answers, and reads them back when it starts.
 */
public final class LeaseServer {
    private record Lease(String owner, long expiresAtMillis) {
    }

    private final Map<String, Lease> leases = new HashMap<>();
    private final Path state;
    private long counter;

    private LeaseServer(Path state) throws IOException {
        this.state = state;
        if (state != null && Files.exists(state)) {
            for (String line : Files.readAllLines(state, StandardCharsets.UTF_8)) {
                String[] w = line.split(" ");
                if (w[0].equals("counter")) {
                    counter = Long.parseLong(w[1]);
                } else {
                    leases.put(w[1], new Lease(w[2], Long.parseLong(w[3])));
                }
            }
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4 || !(args[3].equals("memory") || args[3].equals("durable"))) {
            System.err.println("usage: LeaseServer HOST PORT FOLDER memory|durable");
            System.exit(2);
        }
        LeaseServer server = new LeaseServer(args[3].equals("durable") ? Path.of(args[2], "leases.txt") : null);
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])), 100);
            System.out.println("lease server on " + args[0] + ":" + args[1] + " (" + args[3] + ")");
            while (true) {
                Socket s = listener.accept();
                Thread t = new Thread(() -> server.serve(s), "client");
                t.setDaemon(true);
                t.start();
            }
        }
    }

    private void serve(Socket s) {
        try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                StandardCharsets.UTF_8)); PrintWriter out = new PrintWriter(new OutputStreamWriter(
                s.getOutputStream(), StandardCharsets.UTF_8), true)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.println(answer(line.split(" ")));
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    synchronized String answer(String[] w) throws IOException {
        long now = System.currentTimeMillis();
        Lease l = w.length > 1 ? leases.get(w[1]) : null;
        boolean live = l != null && l.expiresAtMillis() > now;
        switch (w[0]) {
            case "ACQUIRE" -> {
                if (live && !l.owner().equals(w[2])) {
                    return "BUSY";
                }
                leases.put(w[1], new Lease(w[2], now + Long.parseLong(w[3])));
                counter++;
                save();
                return "OK " + counter;
            }
            case "RELEASE" -> {
                if (!live || !l.owner().equals(w[2])) {
                    return "GONE";
                }
                leases.remove(w[1]);
                save();
                return "OK";
            }
            case "HELD" -> {
                return live ? "HELD " + l.owner() + " " + (l.expiresAtMillis() - now) : "FREE";
            }
            default -> {
                return "ERROR unknown request " + w[0];
            }
        }
    }

    /** In durable mode, the leases and the counter on disk before the answer leaves. */
    private void save() throws IOException {
        if (state == null) {
            return;
        }
        StringBuilder b = new StringBuilder("counter " + counter + "\n");
        leases.forEach((k, l) -> b.append("lease ").append(k).append(' ').append(l.owner()).append(' ')
                .append(l.expiresAtMillis()).append('\n'));
        Path tmp = state.resolveSibling("leases.tmp");
        try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            c.write(ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8)));
            c.force(true);
        }
        Files.move(tmp, state, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
