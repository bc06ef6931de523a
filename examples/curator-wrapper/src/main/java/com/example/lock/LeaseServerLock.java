package com.example.lock;

import io.lockchaos.api.Backend;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.LockServers;
import io.lockchaos.api.Promises;
import io.lockchaos.api.ServerSlot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A lock on the team's own {@link LeaseServer}, which lockchaos starts, kills, pauses and cuts off as the lock's own
 * servers: a lease per grant, fenced by the server's counter. The workload's {@code lock_settings} {@code {"durable":
 * true}} starts the server in its durable mode; without it a killed server forgets who holds the lock.
 */
public final class LeaseServerLock implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.OWN;
    }

    @Override
    public LockServers servers() {
        return new LockServers() {
            @Override
            public String name() {
                return "lease-server";
            }

            @Override
            public List<String> command(ServerSlot slot) {
                boolean durable = Boolean.parseBoolean(slot.settings().getOrDefault("durable", "false"));
                return slot.java(LeaseServer.class.getName(), slot.host(), Integer.toString(slot.port()),
                        slot.folder().toString(), durable ? "durable" : "memory");
            }
        };
    }

    @Override
    public LockClient open(LockContext context) {
        return new Client(context);
    }

    /** What the server still holds of the run's keys: leases, which end by themselves. */
    @Override
    public LockInspection inspect(LockContext context) throws IOException {
        List<LockInspection.Entry> held = new ArrayList<>();
        try (Client c = new Client(context)) {
            for (String key : context.allKeys()) {
                String[] w = c.ask("HELD " + key).split(" ");
                if (w[0].equals("HELD")) {
                    held.add(new LockInspection.Entry(key, key + " (" + w[1] + ", " + w[2] + " ms left)", 0));
                }
            }
        }
        return new LockInspection(List.of(), held);
    }

    private static final class Client implements LockClient {
        private final LockContext ctx;
        private final String owner = UUID.randomUUID().toString();
        private Socket socket;
        private BufferedReader in;
        private PrintWriter out;
        private volatile long validUntil = Long.MIN_VALUE;

        Client(LockContext ctx) {
            this.ctx = ctx;
        }

        /** One request and its answer, on a connection made at first use and again after a failure. */
        String ask(String request) throws IOException {
            try {
                if (socket == null) {
                    String[] hostPort = ctx.endpoints().get(0).split(":");
                    socket = new Socket();
                    socket.connect(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])),
                            (int) ctx.connectionTimeout().toMillis());
                    // a server that does not answer within a second leaves the request's outcome unknown
                    socket.setSoTimeout(1000);
                    in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                    out = new PrintWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8),
                            true);
                }
                out.println(request);
                String answer = in.readLine();
                if (answer == null) {
                    throw new IOException("the lease server closed the connection");
                }
                return answer;
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            long lease = ctx.lease().toMillis();
            while (true) {
                long sent = System.nanoTime();
                String[] w;
                try {
                    w = ask("ACQUIRE " + ctx.key() + " " + owner + " " + lease).split(" ");
                } catch (ConnectException e) {
                    // refused: the request never left, so nothing was granted; the server may be restarting
                    w = new String[] {"DOWN"};
                }
                if (w[0].equals("OK")) {
                    // the lease counts from before the request left: the server's started later
                    validUntil = sent + Duration.ofMillis(lease).toNanos();
                    return Grant.fenced(ctx.key(), Long.parseLong(w[1]), 0);
                }
                if (System.nanoTime() > deadline) {
                    return null;
                }
                Thread.sleep(20);
            }
        }

        @Override
        public boolean release() throws IOException {
            validUntil = Long.MIN_VALUE;
            return ask("RELEASE " + ctx.key() + " " + owner).equals("OK");
        }

        @Override
        public boolean stillHolds() {
            return System.nanoTime() < validUntil;
        }

        @Override
        public long validUntilNanos() {
            return validUntil;
        }

        @Override
        public void close() {
            if (socket == null) {
                return;
            }
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
            socket = null;
        }
    }
}
