package io.lockchaos.agent;

import io.lockchaos.client.Grant;
import io.lockchaos.client.LockClient;
import io.lockchaos.client.LockRecipe;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.ZooKeeper;

/**
 * A client agent: a JVM whose classpath is one Curator version (and its dependencies) plus this project's own classes,
 * serving lock clients to a runner over loopback sockets. Each accepted connection is one client: its own Curator
 * session and recipe, driven by the runner's commands (open, acquire, release, close; session and client-side expiry
 * for the nemesis), with every connection state pushed to the runner as it happens. The recipes are this project's
 * {@link LockRecipe} clients, the same code the runner uses in-process, so the agent path differs from the in-process
 * one only in the Curator that runs underneath.
 *
 * <p>Arguments: {@code --listen HOST:PORT} (port 0: any free one) and {@code --parent PID} (halt when that process is
 * gone). It prints one line to standard output once it listens: {@code {"listening":"HOST:PORT","curator":VERSION,
 * "zookeeper":VERSION,"pid":PID}}. The protocol is host-agnostic (an address, not a pipe), so an agent could serve a
 * runner on another host; the runner only uses loopback.
 */
public final class AgentMain {
    private AgentMain() {
    }

    public static void main(String[] args) throws Exception {
        String listen = "127.0.0.1:0";
        long parent = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--listen" -> listen = args[i + 1];
                case "--parent" -> parent = Long.parseLong(args[i + 1]);
                default -> {
                    System.err.println("lockchaos agent: unknown argument " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (parent > 0) {
            io.lockchaos.cluster.ParentWatchdog.start(parent);
        }
        int colon = listen.lastIndexOf(':');
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName(listen.substring(0, colon)),
                Integer.parseInt(listen.substring(colon + 1))), 200);
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("listening", server.getInetAddress().getHostAddress() + ":" + server.getLocalPort());
        hello.put("curator", versionOf("org.apache.curator", "curator-framework", CuratorFramework.class));
        hello.put("zookeeper", versionOf("org.apache.zookeeper", "zookeeper", ZooKeeper.class));
        hello.put("pid", ProcessHandle.current().pid());
        System.out.println(AgentWire.encode(hello));
        System.out.flush();
        while (true) {
            Socket s = server.accept();
            s.setTcpNoDelay(true);
            Thread t = new Thread(() -> new Connection(s).serve(), "agent-client-" + s.getPort());
            t.setDaemon(true);
            t.start();
        }
    }

    /** The version in a jar's Maven descriptor, else its manifest's, else "unknown". */
    static String versionOf(String group, String artifact, Class<?> c) {
        String path = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (var in = c.getClassLoader().getResourceAsStream(path)) {
            if (in != null) {
                java.util.Properties p = new java.util.Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through to the manifest
        }
        String v = c.getPackage() == null ? null : c.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /** One runner-side client: one session, one recipe. */
    private static final class Connection {
        private final Socket socket;
        private Writer out;
        /** Acquires and releases run one at a time, off the reading thread, so session queries are answered at once. */
        private final ExecutorService lockThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "agent-lock");
            t.setDaemon(true);
            return t;
        });
        private volatile CuratorFramework curator;
        private volatile LockClient lock;

        Connection(Socket socket) {
            this.socket = socket;
        }

        void serve() {
            try (socket) {
                out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8));
                String line;
                while ((line = in.readLine()) != null) {
                    Map<String, Object> m = AgentWire.decode(line);
                    Object id = m.get("id");
                    String op = String.valueOf(m.get("op"));
                    switch (op) {
                        case "open", "acquire", "release" -> lockThread.execute(() -> answer(id, () -> run(op, m)));
                        case "close" -> {
                            lockThread.shutdown();
                            lockThread.awaitTermination(20, TimeUnit.SECONDS); // the runner waits 30 s
                            closeAll();
                            answer(id, () -> Map.of("ok", true));
                            return;
                        }
                        default -> answer(id, () -> run(op, m));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the runner went away (or spoke nonsense): this client's session goes with it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lockThread.shutdownNow();
                closeAll();
            }
        }

        private void closeAll() {
            LockClient l = lock;
            CuratorFramework c = curator;
            lock = null;
            curator = null;
            if (l != null) {
                l.close();
            }
            if (c != null) {
                c.close();
            }
        }

        private interface Step {
            Map<String, Object> call() throws Exception;
        }

        private void answer(Object id, Step step) {
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("id", id);
            try {
                reply.putAll(step.call());
            } catch (Throwable e) {
                // never leave the runner waiting: a LinkageError is this project's code meeting a Curator whose API
                // differs, an Error anything else; either is the op's outcome, as an exception would be
                reply.put("error", String.valueOf(e));
                reply.put("interrupted", e instanceof InterruptedException);
            }
            send(reply);
        }

        private synchronized void send(Map<String, Object> message) {
            try {
                out.write(AgentWire.encode(message));
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                // the runner is gone: the reading side ends this connection
            }
        }

        private Map<String, Object> run(String op, Map<String, Object> m) throws Exception {
            switch (op) {
                case "open" -> {
                    return open(m);
                }
                case "acquire" -> {
                    Grant g = side(m).acquire(Duration.ofMillis(((Number) m.get("timeout_ms")).longValue()));
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("grant", g == null ? null : grant(g));
                    return r;
                }
                case "release" -> {
                    return Map.of("present", side(m).release());
                }
                case "session" -> {
                    return session(zookeeper());
                }
                case "expire_client_side" -> {
                    ZooKeeper zk = zookeeper();
                    if (zk == null) {
                        throw new IllegalStateException("no session to expire");
                    }
                    return Map.of("ok", true, "parked", io.lockchaos.client.ClientSideExpiry.inject(zk));
                }
                default -> throw new IllegalArgumentException("unknown op '" + op + "'");
            }
        }

        /** The lock a command is about: the client's own, or its read side ({@code "side":"read"}, a downgrade). */
        private LockClient side(Map<String, Object> m) {
            if (!"read".equals(m.get("side"))) {
                return lock;
            }
            LockClient r = lock.readSide();
            if (r == null) {
                throw new IllegalStateException("this lock has no read side");
            }
            return r;
        }

        private static Map<String, Object> grant(Grant g) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("node", g.node());
            r.put("czxid", g.czxid());
            r.put("session", g.session());
            r.put("owner", g.owner());
            r.put("seq", g.seq());
            r.put("notifications", g.notifications());
            return r;
        }

        private ZooKeeper zookeeper() {
            CuratorFramework c = curator;
            try {
                return c == null ? null : c.getZookeeperClient().getZooKeeper();
            } catch (Exception e) {
                return null;
            }
        }

        private static Map<String, Object> session(ZooKeeper zk) {
            Map<String, Object> r = new LinkedHashMap<>();
            long id = zk == null ? 0 : zk.getSessionId();
            r.put("session", id);
            byte[] pw = zk == null || id == 0 ? null : zk.getSessionPasswd();
            r.put("password", pw == null ? null : Base64.getEncoder().encodeToString(pw));
            return r;
        }

        private Map<String, Object> open(Map<String, Object> m) throws Exception {
            LockRecipe recipe = LockRecipe.parse((String) m.get("recipe"));
            String connect = (String) m.get("connect");
            int sessionTimeout = ((Number) m.get("session_timeout_ms")).intValue();
            int connectionTimeout = ((Number) m.get("connection_timeout_ms")).intValue();
            CuratorFramework c = CuratorFrameworkFactory.newClient(connect, sessionTimeout, connectionTimeout,
                    new RetryNTimes(3, 100));
            // the session a state is about, decided as the runner's in-process sessions decide it
            io.lockchaos.client.SessionOfState current = new io.lockchaos.client.SessionOfState();
            c.getConnectionStateListenable().addListener((cf, state) -> {
                Map<String, Object> now = session(zookeeper());
                long about = current.about(state.name(), (Long) now.get("session"));
                Map<String, Object> event = new LinkedHashMap<>();
                event.put("event", "state");
                event.put("state", state.name());
                event.put("about", about);
                event.putAll(now);
                send(event);
            });
            curator = c;
            c.start();
            if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
                curator = null;
                c.close();
                throw new IllegalStateException("no connection to " + connect);
            }
            current.connected(c.getZookeeperClient().getZooKeeper().getSessionId());
            List<String> keys = new ArrayList<>();
            if (m.get("keys") instanceof List<?> l) {
                for (Object k : l) {
                    keys.add((String) k);
                }
            }
            lock = recipe.open(c, (String) m.get("key"), Boolean.TRUE.equals(m.get("read")), keys);
            return session(zookeeper());
        }
    }
}
