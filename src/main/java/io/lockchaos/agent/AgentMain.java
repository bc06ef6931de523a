package io.lockchaos.agent;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.client.ClientContext;
import io.lockchaos.client.ClientSideExpiry;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockServices;
import io.lockchaos.client.LockSettings;
import io.lockchaos.cluster.ParentWatchdog;
import java.io.IOException;
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
import org.apache.zookeeper.ZooKeeper;

/**
 * A client agent: a JVM whose classpath is one Curator version (and its dependencies) plus this project's own classes,
 * serving lock clients to a runner over loopback sockets. Each accepted connection is one client: its own Curator
 * session and recipe, driven by the runner's commands (open, acquire, release, close; session and client-side expiry
 * for the nemesis), with every connection state pushed to the runner as it happens. The recipes are this project's
 * {@link LockRecipe} clients, the same code the runner uses in-process, so the agent path differs from the in-process
 * one only in the Curator that runs underneath.
 *
 * <p>Arguments: {@code --listen HOST:PORT} (port 0: any free one), {@code --parent PID} (halt when that process is
 * gone) or {@code --parent stdin} (halt when standard input ends), and {@code --secret stdin}, which every agent that
 * listens must be given. It prints one line to standard output once it listens: {@code {"listening":"HOST:PORT",
 * "curator":VERSION,"zookeeper":VERSION,"pid":PID}}. The protocol is host-agnostic (an address, not a pipe): an agent
 * started over SSH on another host ({@code --cluster ssh} with {@code client_hosts}) serves the runner across the
 * network, one started on this machine serves it over loopback, where any local user may reach its port as well.
 * So every agent trusts its standard input, which only its runner holds, and no connection until it proves so:
 *
 * <ul>
 *   <li>the first line of standard input is the run's secret (never on a command line, where any user of the host
 *       could read it); every connection must prove it before anything else: the agent sends {@code
 *       {"challenge":NONCE}}, the runner answers {@code {"proof":HMAC-SHA256(secret, NONCE)}} (the secret itself
 *       never crosses the network), and a connection without the proof is refused and logged;
 *   <li>each later line of standard input, {@code {"allow":["HOST:PORT",...]}}, adds server endpoints the agent may
 *       dial: an {@code open} naming any other is refused, so that even a connection that proved the secret cannot
 *       point the agent at an address the runner did not give it;
 *   <li>a line from a connection is at most {@link AgentWire#MAX_LINE} bytes: a longer one is refused and the
 *       connection closed, without reading the rest.
 * </ul>
 */
public final class AgentMain {
    private AgentMain() {
    }

    public static void main(String[] args) throws Exception {
        String listen = "127.0.0.1:0";
        long parent = 0;
        boolean parentStdin = false;
        boolean secretStdin = false;
        String lockClass = null;
        boolean describe = false;
        String slots = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--listen" -> listen = args[i + 1];
                case "--parent" -> {
                    parentStdin = args[i + 1].equals("stdin");
                    parent = parentStdin ? 0 : Long.parseLong(args[i + 1]);
                }
                case "--secret" -> {
                    if (!args[i + 1].equals("stdin")) {
                        System.err.println("lockchaos agent: --secret takes stdin only (never the secret itself)");
                        System.exit(2);
                    }
                    secretStdin = true;
                }
                case "--lock-class" -> lockClass = args[i + 1];
                case "--describe" -> {
                    lockClass = args[i + 1];
                    describe = true;
                }
                case "--slots-file" -> slots = java.nio.file.Files.readString(java.nio.file.Path.of(args[i + 1]),
                        StandardCharsets.UTF_8);
                default -> {
                    System.err.println("lockchaos agent: unknown argument " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (!secretStdin && !describe) {
            System.err.println("lockchaos agent: --secret stdin is required (an agent serves only its own runner)");
            System.exit(2);
        }
        if (secretStdin) {
            secret = firstLineOfInput().getBytes(StandardCharsets.UTF_8);
            if (secret.length < 16) {
                System.err.println("lockchaos agent: the secret on standard input is missing or too short");
                System.exit(2);
            }
            readAllowances(parentStdin);
        } else if (parentStdin) {
            ParentWatchdog.startOnEndOfInput();
        }
        if (!parentStdin && parent > 0) {
            ParentWatchdog.start(parent);
        }
        // the wire is standard output's first line: what a user's class prints goes to the agent's log instead
        java.io.PrintStream wire = System.out;
        System.setOut(System.err);
        LockFactory user = null;
        if (lockClass != null) {
            try {
                user = UserFactories.load(lockClass);
            } catch (UserFactories.Unusable e) {
                wire.println(AgentWire.encode(Map.of("error", e.getMessage())));
                wire.flush();
                System.exit(describe ? 0 : 2);
            }
            if (describe) {
                wire.println(AgentWire.encode(UserFactories.describe(user, slots)));
                wire.flush();
                System.exit(0);
            }
        }
        LockFactory factory = user;
        int colon = listen.lastIndexOf(':');
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName(listen.substring(0, colon)),
                Integer.parseInt(listen.substring(colon + 1))), 200);
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("listening", server.getInetAddress().getHostAddress() + ":" + server.getLocalPort());
        hello.put("curator", versionOf("org.apache.curator", "curator-framework",
                "org.apache.curator.framework.CuratorFramework"));
        hello.put("zookeeper", versionOf("org.apache.zookeeper", "zookeeper", "org.apache.zookeeper.ZooKeeper"));
        hello.put("pid", ProcessHandle.current().pid());
        wire.println(AgentWire.encode(hello));
        wire.flush();
        while (true) {
            Socket s = server.accept();
            s.setTcpNoDelay(true);
            Thread t = new Thread(() -> new Connection(s, factory).serve(), "agent-client-" + s.getPort());
            t.setDaemon(true);
            t.start();
        }
    }

    /** The run's secret every connection must prove. */
    private static byte[] secret;

    /** The server endpoints the runner gave (see {@link AgentWire#endpoints}); guarded by itself. */
    private static final java.util.Set<String> ALLOWED = new java.util.HashSet<>();

    /**
     * How long an {@code open} naming an endpoint not allowed yet waits for the runner's word: the runner writes the
     * allowance to standard input before it sends the open over the socket, but the two channels keep no order
     * between them.
     */
    private static final long ALLOW_WAIT_MS = 5_000;

    /**
     * Reads the runner's allowances from standard input after the secret, until it ends; its end halts the agent when
     * the input stands for the runner ({@code --parent stdin}).
     */
    private static void readAllowances(boolean haltAtEnd) {
        Thread t = new Thread(() -> {
            AgentWire.LineReader in = new AgentWire.LineReader(System.in, AgentWire.MAX_LINE);
            try {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.isBlank()) {
                        continue;
                    }
                    try {
                        if (AgentWire.decode(line).get("allow") instanceof List<?> l) {
                            synchronized (ALLOWED) {
                                for (Object e : l) {
                                    ALLOWED.addAll(AgentWire.endpoints(String.valueOf(e)));
                                }
                                ALLOWED.notifyAll();
                            }
                        }
                    } catch (IllegalArgumentException e) {
                        System.err.println("lockchaos agent: ignored a line of standard input: " + e.getMessage());
                    }
                }
            } catch (IOException e) {
                // a broken pipe is an end too
            }
            if (haltAtEnd) {
                Runtime.getRuntime().halt(3);
            }
        }, "lockchaos-agent-input");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Returns when every endpoint of {@code connect} is allowed, waiting a moment for allowances in transit.
     *
     * @throws IllegalArgumentException naming the first endpoint the runner did not give
     */
    static void checkAllowed(String connect) throws InterruptedException {
        List<String> wanted = AgentWire.endpoints(connect);
        if (wanted.isEmpty()) {
            throw new IllegalArgumentException("agent: open names no server endpoint");
        }
        long deadline = System.nanoTime() + ALLOW_WAIT_MS * 1_000_000L;
        synchronized (ALLOWED) {
            while (true) {
                String missing = wanted.stream().filter(e -> !ALLOWED.contains(e)).findFirst().orElse(null);
                if (missing == null) {
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    System.err.println("lockchaos agent: refused an open naming " + missing);
                    throw new IllegalArgumentException("agent: " + missing
                            + " is not a server endpoint this run's runner gave the agent; refused");
                }
                ALLOWED.wait(left / 1_000_000L + 1);
            }
        }
    }

    /** Standard input's first line, read a byte at a time so that the watchdog reads the rest. */
    private static String firstLineOfInput() throws IOException {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        for (int b = System.in.read(); b >= 0 && b != '\n'; b = System.in.read()) {
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8).trim();
    }

    /** HMAC-SHA256 of {@code nonce} under {@code key}, in hex: what a connection proves the secret with. */
    public static String proof(byte[] key, String nonce) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(nonce.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The version of the jar holding {@code className}: its Maven descriptor's, else its manifest's, else "unknown";
     * "none" when the classpath lacks the class (a user's lock on another store needs no Curator).
     */
    static String versionOf(String group, String artifact, String className) {
        Class<?> c;
        try {
            c = Class.forName(className, false, AgentMain.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return "none";
        }
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

    /**
     * Looks at every held lock's {@link LockClient#stillHolds} each few milliseconds and tells the runner when it
     * changes: a lock of the user's own may stop holding on its own grounds (a connection state, a lease), and the
     * runner's worker must stop with it without asking over the socket every time it checks.
     */
    private static final java.util.Set<Connection> HELD = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        java.util.concurrent.ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "agent-holds-watch");
            t.setDaemon(true);
            return t;
        });
        watch.scheduleWithFixedDelay(() -> HELD.forEach(c -> {
            try {
                c.watchHolds();
            } catch (Throwable e) {
                // one lock's failure must not end the watch of the others (a thrown task is never run again)
            }
        }), 5, 5, TimeUnit.MILLISECONDS);
    }

    /** One runner-side client: one session, one lock. */
    private static final class Connection {
        private final Socket socket;
        /** The user's lock, or null for this project's Curator recipes. */
        private final LockFactory user;
        private Writer out;
        /** Acquires and releases run one at a time, off the reading thread, so session queries are answered at once. */
        private final ExecutorService lockThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "agent-lock");
            t.setDaemon(true);
            return t;
        });
        private volatile ClientContext context;
        private volatile LockClient lock;
        /** What the runner was last told of stillHolds since the grant. */
        private boolean toldHolds = true;
        private long toldUntil = Long.MAX_VALUE;
        private long holdsSeq;
        private final Object holdsLock = new Object();
        /** Grants not yet released (a reentrant lock nests them); touched by the lock thread only. */
        private int depth;

        Connection(Socket socket, LockFactory user) {
            this.socket = socket;
            this.user = user;
        }

        void serve() {
            try (socket) {
                out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
                AgentWire.LineReader in = new AgentWire.LineReader(socket.getInputStream(), AgentWire.MAX_LINE);
                if (!proven(in)) {
                    return;
                }
                String line;
                while ((line = in.readLine()) != null) {
                    Map<String, Object> m = AgentWire.decode(line);
                    Object id = m.get("id");
                    String op = String.valueOf(m.get("op"));
                    switch (op) {
                        case "open", "acquire", "release", "read_set", "write_set" ->
                                lockThread.execute(() -> answer(id, () -> run(op, m)));
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
            } catch (AgentWire.LineTooLong e) {
                System.err.println("lockchaos agent: closed the connection from " + socket.getRemoteSocketAddress()
                        + ": it sent " + e.getMessage());
                send(Map.of("error", "agent: " + e.getMessage() + ": connection closed"));
            } catch (IOException | RuntimeException e) {
                // the runner went away (or spoke nonsense): this client's session goes with it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lockThread.shutdownNow();
                closeAll();
            }
        }

        /**
         * Challenges the connection to prove the run's secret; logs and refuses one that does not within 5 s. The
         * proof is compared in constant time.
         */
        private boolean proven(AgentWire.LineReader in) throws IOException {
            byte[] n = new byte[16];
            new java.security.SecureRandom().nextBytes(n);
            String nonce = java.util.HexFormat.of().formatHex(n);
            out.write(AgentWire.encode(Map.of("challenge", nonce)) + "\n");
            out.flush();
            String answer = null;
            socket.setSoTimeout(5_000);
            try {
                answer = in.readLine();
            } catch (java.net.SocketTimeoutException | AgentWire.LineTooLong e) {
                // no answer in time, or no answer of the protocol: refused below
            }
            socket.setSoTimeout(0);
            Object given = null;
            try {
                given = answer == null ? null : AgentWire.decode(answer).get("proof");
            } catch (RuntimeException e) {
                // not a message of the protocol: refused below
            }
            boolean ok = given instanceof String g && java.security.MessageDigest.isEqual(
                    g.getBytes(StandardCharsets.UTF_8), proof(secret, nonce).getBytes(StandardCharsets.UTF_8));
            if (!ok) {
                System.err.println("lockchaos agent: refused a connection from " + socket.getRemoteSocketAddress()
                        + ": " + (answer == null ? "no answer to the challenge" : "it did not prove the run's secret"));
                System.err.flush();
                return false;
            }
            out.write(AgentWire.encode(Map.of("welcome", true)) + "\n");
            out.flush();
            return true;
        }

        /**
         * Tells the runner when the held lock's stillHolds or validity changed. Each report is numbered, under the
         * connection's lock with the acquire's own report, so the runner keeps the newest whichever arrives first.
         */
        void watchHolds() {
            LockClient l = lock;
            if (l == null) {
                return;
            }
            synchronized (holdsLock) {
                Map<String, Object> now = holdsReport(l, false);
                if (now != null) {
                    now.put("event", "holds");
                    send(now);
                }
            }
        }

        /**
         * The lock's stillHolds and validity, numbered, when they differ from what was last told (or always, with
         * {@code always}); else null.
         */
        private Map<String, Object> holdsReport(LockClient l, boolean always) {
            boolean h;
            long until;
            try {
                h = l.stillHolds();
                until = l.validUntilNanos();
            } catch (RuntimeException e) {
                h = false; // a lock that cannot say whether it holds does not
                until = System.nanoTime();
            }
            if (!always && h == toldHolds && until == toldUntil) {
                return null;
            }
            toldHolds = h;
            toldUntil = until;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("holds", h);
            r.put("valid_ms", until == Long.MAX_VALUE ? -1 : Math.max(0, (until - System.nanoTime()) / 1_000_000L));
            r.put("holds_seq", ++holdsSeq);
            return r;
        }

        private void closeAll() {
            HELD.remove(this);
            LockClient l = lock;
            lock = null;
            if (l != null) {
                l.close(); // a factory's client closes its own session
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
                case "set_up" -> {
                    checkAllowed(m.get("connect") instanceof String c ? c : null);
                    factory(m).setUp(onceContext(m));
                    return Map.of("ok", true);
                }
                case "inspect" -> {
                    checkAllowed(m.get("connect") instanceof String c ? c : null);
                    LockInspection found = factory(m).inspect(onceContext(m));
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("inspection", found == null ? null : Map.of("left", entries(found.left()), "expiring",
                            entries(found.expiring())));
                    return r;
                }
                case "acquire" -> {
                    LockClient l = side(m);
                    Grant g = l.acquire(Duration.ofMillis(((Number) m.get("timeout_ms")).longValue()));
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("grant", g == null ? null : grant(g));
                    if (g != null && l == lock) {
                        synchronized (holdsLock) {
                            r.putAll(holdsReport(l, true)); // whatever it says now goes with the grant
                        }
                        depth++;
                        HELD.add(this);
                    }
                    return r;
                }
                case "release" -> {
                    LockClient l = side(m);
                    if (l == lock && --depth <= 0) {
                        depth = 0;
                        HELD.remove(this);
                    }
                    LockClient.Release found = l.releaseOutcome(() -> { });
                    // present for a runner that knows only true or false; outcome says the third answer too
                    return Map.of("present", found != LockClient.Release.GONE, "outcome", found.wireName());
                }
                case "read_set" -> {
                    return Map.of("elements", store().readSet((String) m.get("name")));
                }
                case "write_set" -> {
                    List<Long> elements = new java.util.ArrayList<>();
                    for (Object o : (List<?>) m.get("elements")) {
                        elements.add(((Number) o).longValue());
                    }
                    store().writeSet((String) m.get("name"), elements);
                    return Map.of("ok", true);
                }
                case "session" -> {
                    return session();
                }
                case "expire_client_side" -> {
                    ClientContext c = context;
                    ZooKeeper zk = c == null ? null : c.zookeeperHandle();
                    if (zk == null) {
                        throw new IllegalStateException("no session to expire");
                    }
                    return Map.of("ok", true, "parked", ClientSideExpiry.inject(zk));
                }
                case "clock" -> {
                    return Map.of("time_ms", System.currentTimeMillis()); // for the runner's offset measurement
                }
                default -> throw new IllegalArgumentException("unknown op '" + op + "'");
            }
        }

        /** The set the lock keeps (a lock whose critical section writes in its own transaction). */
        private TransactionalSet store() {
            TransactionalSet t = lock == null ? null : lock.transactionalSet();
            if (t == null) {
                throw new IllegalStateException("this lock keeps no set");
            }
            return t;
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
            r.put("kind", g.kind().wireName());
            if (!g.facts().isEmpty()) {
                r.put("facts", g.facts());
            }
            return r;
        }

        /** The client's current session id and password, as the lock reported where to find them. */
        private Map<String, Object> session() {
            ClientContext c = context;
            Map<String, Object> r = new LinkedHashMap<>();
            long id = c == null ? 0 : c.targetSessionId();
            r.put("session", id);
            byte[] pw = c == null || id == 0 ? null : c.targetPassword();
            r.put("password", pw == null ? null : Base64.getEncoder().encodeToString(pw));
            return r;
        }

        /** This project's factory for {@code recipe}, from the service it runs on (as the runner's own clients). */
        private static LockFactory recipeFactory(LockRecipe recipe) {
            return LockServices.of(recipe).factory(recipe);
        }

        private static List<Map<String, Object>> entries(List<LockInspection.Entry> entries) {
            List<Map<String, Object>> out = new ArrayList<>();
            for (LockInspection.Entry e : entries) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("key", e.key());
                n.put("node", e.name());
                n.put("owner", e.owner());
                out.add(n);
            }
            return out;
        }

        /** The context of a once-per-run call (setUp, inspect): the request's settings; its states go nowhere. */
        private static ClientContext onceContext(Map<String, Object> m) {
            return new ClientContext(LockSettings.fromWire(m), () -> 0, (state, about, why) -> { }, null);
        }

        /** The user's factory, or the built-in recipe a request names. */
        private LockFactory factory(Map<String, Object> m) {
            return user != null ? user : recipeFactory(LockRecipe.parse((String) m.get("recipe")));
        }

        private Map<String, Object> open(Map<String, Object> m) throws Exception {
            checkAllowed(m.get("connect") instanceof String c ? c : null);
            LockFactory factory = factory(m);
            int process = m.get("process") instanceof Number n ? n.intValue() : 0;
            ClientContext c = new ClientContext(LockSettings.fromWire(m), () -> process, (state, about, why) -> {
                Map<String, Object> event = new LinkedHashMap<>();
                event.put("event", "state");
                event.put("state", state);
                event.put("about", about);
                if (why != null) {
                    event.put("why", why);
                }
                event.putAll(session());
                send(event);
            }, null);
            context = c;
            lock = factory.open(c);
            Map<String, Object> r = new LinkedHashMap<>(session());
            r.put("read_side", !c.read() && lock.readSide() != null);
            r.put("transactional_set", lock.transactionalSet() != null);
            return r;
        }
    }
}
