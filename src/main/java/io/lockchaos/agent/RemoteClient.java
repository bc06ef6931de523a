package io.lockchaos.agent;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.client.LockSettings;
import io.lockchaos.client.SessionControl;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runner's side of one client served by a {@link AgentMain}: a lock client whose acquires and releases run in
 * the agent, and the handle of its session for the nemesis. Connection states arrive as the agent sees them and are
 * passed to the listener given at {@link #open}. Requests carry ids, so the nemesis may ask about the session while an
 * acquire waits. A lost agent fails every request in flight with an exception: an indeterminate op, as a lost
 * connection would be in-process.
 */
public final class RemoteClient implements LockClient, SessionControl {
    /** Connection states of the agent's session, in the order the agent saw them. */
    public interface StateListener {
        /**
         * @param state Curator's connection state name
         * @param about the session it concerns (the one lost, or the one now connected)
         * @param why a revocation's reason ({@link io.lockchaos.api.LockContext#revoked}), else null
         */
        void onState(String state, long about, String why);
    }

    /** An error the agent reported; its text is the agent-side exception's, so histories read the same. */
    public static final class AgentException extends Exception {
        private final String text;

        AgentException(String text) {
            super(text);
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private final Socket socket;
    private final Writer out;
    private final Map<Long, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile StateListener listener = (s, a, w) -> { };
    private volatile long session;
    private volatile byte[] password;
    private volatile boolean closed;
    private boolean downgrades;
    /** Whether the agent's lock keeps the protected set (see {@link io.lockchaos.api.TransactionalSet}). */
    private boolean keepsSet;
    private volatile long dedicatedPid = -1;
    private volatile java.nio.file.Path clockFile;
    /** What the lock in the agent last said of {@link #stillHolds} (pushed to us when it changes). */
    private volatile boolean holds = true;
    /** The current grant's validity by the lock's own reckoning, on this JVM's clock. */
    private volatile long validUntil = Long.MAX_VALUE;
    /** The number of the last report taken. */
    private long holdsSeq;
    /** Ids of acquires and releases in flight; answers to them count in {@link #answered}. */
    private final java.util.Set<Long> lockOps = ConcurrentHashMap.newKeySet();
    /** Acquire and release answers received, and taken by their callers: see {@link #awaitCaller}. */
    private long answered;
    private long consumed;
    private final Duration giveUpAfter;

    private RemoteClient(Socket socket, Duration giveUpAfter, byte[] secret) throws IOException {
        this.socket = socket;
        this.giveUpAfter = giveUpAfter;
        this.out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        if (secret != null) {
            prove(in, secret);
        }
        Thread reader = new Thread(() -> read(in), "lockchaos-agent-client");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * A connection to the agent at {@code address}, proving the run's {@code secret} (every agent asks for it); {@link
     * #open} then makes its session and recipe.
     */
    public static RemoteClient connect(InetSocketAddress address, byte[] secret) throws IOException {
        if (secret == null) {
            throw new IllegalArgumentException("every client agent asks for the run's secret");
        }
        return connect(address, GIVE_UP_AFTER, secret);
    }

    /** A connection to {@code agent}, with its secret. */
    public static RemoteClient connect(AgentLauncher.Agent agent) throws IOException {
        return connect(agent.address(), agent.secret());
    }

    /**
     * A connection to a stand-in agent that asks no proof (tests of this class only), giving up on an unanswered
     * acquire or release after {@code giveUp}.
     */
    static RemoteClient connect(InetSocketAddress address, Duration giveUp) throws IOException {
        return connect(address, giveUp, null);
    }

    private static RemoteClient connect(InetSocketAddress address, Duration giveUp, byte[] secret)
            throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(address, 10_000);
        try {
            return new RemoteClient(s, giveUp, secret);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Answers the agent's challenge with the proof of the secret (see {@link AgentMain}), within 10 s. */
    private void prove(BufferedReader in, byte[] secret) throws IOException {
        socket.setSoTimeout(10_000);
        try {
            String challenge = in.readLine();
            Object nonce = challenge == null ? null : AgentWire.decode(challenge).get("challenge");
            if (!(nonce instanceof String n)) {
                throw new IOException("client agent at " + socket.getRemoteSocketAddress() + " sent no challenge");
            }
            out.write(AgentWire.encode(Map.of("proof", AgentMain.proof(secret, n))) + "\n");
            out.flush();
            String welcome = in.readLine();
            if (welcome == null || !Boolean.TRUE.equals(AgentWire.decode(welcome).get("welcome"))) {
                throw new IOException("client agent at " + socket.getRemoteSocketAddress() + " refused the proof of"
                        + " the run's secret");
            }
        } finally {
            socket.setSoTimeout(0);
        }
    }

    /**
     * The agent's wall clock minus this JVM's, in ms, and the round trip it was measured in: the agent's reading
     * is taken to fall at the middle of the round trip, so the offset is within half of it.
     */
    public long[] clockOffset() throws Exception {
        long t0 = System.currentTimeMillis();
        Map<String, Object> r = call("clock", Map.of(), Duration.ofSeconds(10));
        long t1 = System.currentTimeMillis();
        long agent = ((Number) r.get("time_ms")).longValue();
        return new long[] {agent - (t0 + t1) / 2, t1 - t0};
    }

    /** Runs the factory's {@link io.lockchaos.api.LockFactory#setUp} in the agent, with {@code settings}. */
    public void setUp(String recipe, LockSettings settings) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>(settings.toWire());
        m.put("recipe", recipe);
        call("set_up", m, Duration.ofSeconds(60));
    }

    /**
     * Runs the factory's {@link io.lockchaos.api.LockFactory#inspect} in the agent: its {@code left} and {@code
     * expiring} entries as the history records them ({@code key}, {@code node}, {@code owner}), or null when the
     * factory leaves the inspection to the lock service.
     */
    @SuppressWarnings("unchecked")
    public Map<String, List<Map<String, Object>>> inspect(String recipe, LockSettings settings) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>(settings.toWire());
        m.put("recipe", recipe);
        Map<String, Object> r = call("inspect", m, Duration.ofSeconds(60));
        return r.get("inspection") instanceof Map<?, ?> found ? (Map<String, List<Map<String, Object>>>) found : null;
    }

    /**
     * Opens a client in the agent with {@code settings}: of {@code recipe} (one of this project's recipes), or of the
     * user's lock when the agent serves one ({@code recipe} is then {@code user}).
     *
     * @param process the process the client is opened for
     */
    public void open(String recipe, LockSettings settings, int process, StateListener states)
            throws Exception {
        this.listener = states;
        Map<String, Object> m = new LinkedHashMap<>(settings.toWire());
        m.put("recipe", recipe);
        m.put("process", process);
        // the agent waits up to 30 s for a connection, as the in-process client does
        Map<String, Object> r = call("open", m, Duration.ofSeconds(45));
        this.downgrades = Boolean.TRUE.equals(r.get("read_side"));
        this.keepsSet = Boolean.TRUE.equals(r.get("transactional_set"));
        remember(r);
    }

    /**
     * Keeps the session the agent reports, unless it reports none: in an outage the client may have no handle for a
     * while, and the last session is still the one whose nodes the server holds (as the in-process client keeps it).
     */
    private synchronized void remember(Map<String, Object> r) {
        if (r.get("session") instanceof Number n && n.longValue() != 0) {
            session = n.longValue();
            password = r.get("password") instanceof String p ? Base64.getDecoder().decode(p) : null;
        }
    }

    private void read(BufferedReader in) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                Map<String, Object> m = AgentWire.decode(line);
                if ("holds".equals(m.get("event"))) {
                    holdsReport(m);
                } else if ("state".equals(m.get("event"))) {
                    awaitCaller();
                    remember(m);
                    listener.onState((String) m.get("state"), ((Number) m.get("about")).longValue(),
                            m.get("why") instanceof String w ? w : null);
                } else if (m.get("id") instanceof Number id) {
                    CompletableFuture<Map<String, Object>> f = pending.remove(id.longValue());
                    if (f != null) {
                        if (lockOps.remove(id.longValue())) {
                            synchronized (this) {
                                answered++;
                            }
                        }
                        f.complete(m);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // the agent is gone, or spoke nonsense: fail what waits
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
        IOException gone = new IOException("client agent connection lost");
        pending.values().forEach(f -> f.completeExceptionally(gone));
        pending.clear();
    }

    /**
     * Waits (up to 1 s) until the caller of every acquire or release the agent has answered has taken its answer:
     * a state the agent saw after granting must not reach the history before the grant does.
     */
    private synchronized void awaitCaller() throws InterruptedException {
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (consumed < answered) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            wait(left / 1_000_000L + 1);
        }
    }

    private Map<String, Object> call(String op, Map<String, Object> args, Duration timeout) throws Exception {
        long id = ids.incrementAndGet();
        if (op.equals("acquire") || op.equals("release")) {
            lockOps.add(id);
        }
        CompletableFuture<Map<String, Object>> f = new CompletableFuture<>();
        pending.put(id, f);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("op", op);
        if (args != null) {
            m.putAll(args);
        }
        try {
            synchronized (out) {
                if (closed) {
                    throw new IOException("client agent connection lost");
                }
                out.write(AgentWire.encode(m));
                out.write('\n');
                out.flush();
            }
            Map<String, Object> r = timeout == null ? f.get() : f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (r.get("error") != null) {
                throw new AgentException((String) r.get("error"));
            }
            return r;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } catch (TimeoutException e) {
            throw new IOException("client agent did not answer " + op + " within " + timeout.toMillis() + " ms");
        } finally {
            pending.remove(id);
            lockOps.remove(id);
        }
    }

    /**
     * How long past its own timeout an acquire (or a release) may take before the runner gives up on the agent: far
     * more than Curator's retries through a partition take (seconds), so an acquire that overruns its timeout is
     * still measured; an agent that never answers (stopped, or stuck) ends the op as indeterminate instead of
     * holding the run forever.
     */
    static final Duration GIVE_UP_AFTER = Duration.ofSeconds(120);

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        return acquire(timeout, null);
    }

    private Grant acquire(Duration timeout, String side) throws Exception {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("timeout_ms", timeout.toMillis());
        if (side != null) {
            args.put("side", side);
        }
        Map<String, Object> r = lockCall("acquire", args, timeout.plus(giveUpAfter));
        if (!r.containsKey("grant")) {
            throw new IOException("client agent: acquire answered without a grant field: " + r);
        }
        if (!(r.get("grant") instanceof Map<?, ?> g)) {
            return null;
        }
        if (side == null && r.containsKey("holds_seq")) {
            holdsReport(r);
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        if (g.get("facts") instanceof Map<?, ?> f) {
            f.forEach((k, v) -> facts.put(String.valueOf(k), v));
        }
        // an agent of an older lockchaos sends no kind: the one its token and facts imply
        return new Grant((String) g.get("node"), num(g, "czxid"), num(g, "session"), num(g, "owner"),
                num(g, "seq"), num(g, "notifications"), facts,
                g.get("kind") instanceof String k ? Grant.Kind.parse(k) : null);
    }

    private static long num(Map<?, ?> m, String k) {
        return m.get(k) instanceof Number n ? n.longValue() : -1;
    }

    /**
     * Takes a numbered report of the lock's stillHolds and validity (with a grant, or pushed when they change), unless
     * a newer one came first. The validity is counted from its arrival: a transit time late at most (loopback: well
     * under a millisecond).
     */
    private synchronized void holdsReport(Map<String, Object> r) {
        long seq = num(r, "holds_seq");
        if (seq <= holdsSeq) {
            return;
        }
        holdsSeq = seq;
        long validMs = num(r, "valid_ms");
        validUntil = validMs < 0 ? Long.MAX_VALUE : System.nanoTime() + validMs * 1_000_000L;
        holds = Boolean.TRUE.equals(r.get("holds"));
    }

    /** What the lock in the agent says: it pushes a change the moment it sees one (see AgentMain). */
    @Override
    public boolean stillHolds() {
        return holds;
    }

    @Override
    public long validUntilNanos() {
        return validUntil;
    }

    @Override
    public boolean release() throws Exception {
        return present(lockCall("release", null, giveUpAfter));
    }

    @Override
    public Release releaseOutcome(DangerPoint danger) throws Exception {
        danger.reach();
        return outcome(lockCall("release", null, giveUpAfter));
    }

    /** The agent's outcome, or the one its present field implies (an agent that sends no outcome). */
    private static Release outcome(Map<String, Object> r) throws IOException {
        Release o = r.get("outcome") instanceof String s ? Release.parse(s) : null;
        return o != null ? o : present(r) ? Release.HELD : Release.GONE;
    }

    private static boolean present(Map<String, Object> r) throws IOException {
        if (!(r.get("present") instanceof Boolean b)) {
            throw new IOException("client agent: release answered without a present field: " + r);
        }
        return b;
    }

    /**
     * An acquire or release. When the agent does not answer in time the connection is closed (the agent then drops
     * the session, as a crashed client would) and the op fails as indeterminate. Connection states the agent sent
     * after this answer wait until the caller has it, so the history records them after the op's completion, in the
     * order the agent saw them.
     */
    private Map<String, Object> lockCall(String op, Map<String, Object> args, Duration bound) throws Exception {
        try {
            return call(op, args, bound);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("client agent did not answer")) {
                closeSocket();
            }
            throw e;
        } finally {
            synchronized (this) {
                consumed = answered;
                notifyAll();
            }
        }
    }

    /**
     * The set the agent's lock keeps, when it keeps one: its reads and writes run on the lock's thread in the agent,
     * in order with its acquires and releases, bounded as a release is.
     */
    @Override
    public TransactionalSet transactionalSet() {
        if (!keepsSet) {
            return null;
        }
        return new TransactionalSet() {
            @Override
            public List<Long> readSet(String name) throws Exception {
                List<Long> out = new java.util.ArrayList<>();
                for (Object o : (List<?>) call("read_set", Map.of("name", name), giveUpAfter).get("elements")) {
                    out.add(((Number) o).longValue());
                }
                return out;
            }

            @Override
            public void writeSet(String name, List<Long> elements) throws Exception {
                call("write_set", Map.of("name", name, "elements", elements), giveUpAfter);
            }
        };
    }

    /**
     * The read lock of the agent's read/write lock (for a downgrade); the agent refuses it for any other recipe, so
     * it is offered only for the write side of {@code rw}.
     */
    @Override
    public LockClient readSide() {
        if (!downgrades) {
            return null;
        }
        RemoteClient self = this;
        return new LockClient() {
            @Override
            public Grant acquire(Duration timeout) throws Exception {
                return self.acquire(timeout, "read");
            }

            @Override
            public boolean release() throws Exception {
                return present(lockCall("release", Map.of("side", "read"), giveUpAfter));
            }

            @Override
            public void close() {
            }
        };
    }

    /** The session id the agent last reported (0 when it has none). */
    @Override
    public long sessionId() {
        refresh();
        return session;
    }

    @Override
    public byte[] password() {
        refresh();
        return password;
    }

    /** The id and password from one answer of the agent, so that the two belong to the same session. */
    @Override
    public Session current() {
        refresh(); // not under the lock: the reading thread takes it to remember what the agent says
        synchronized (this) {
            return new Session(session, password);
        }
    }

    /** Asks the agent for the session it has right now; keeps the last known one when it cannot answer in time. */
    private void refresh() {
        if (closed) {
            return;
        }
        try {
            remember(call("session", null, Duration.ofSeconds(5)));
        } catch (Exception e) {
            // the last reported session stands
        }
    }

    /** Says where the clock-shift offset file of the client's agent is (null: its clock cannot move). */
    public void clock(java.nio.file.Path offsetFile) {
        clockFile = offsetFile;
    }

    @Override
    public java.nio.file.Path clockFile() {
        return clockFile;
    }

    /** Says that the agent at {@code pid} serves this client alone, so a client pause may stop it whole. */
    public void dedicated(long pid) {
        dedicatedPid = pid;
    }

    @Override
    public long processId() {
        return dedicatedPid;
    }

    /** The session the agent last reported, without asking it. */
    public long lastSessionId() {
        return session;
    }

    @Override
    public long lastKnownSessionId() {
        return session;
    }

    @Override
    public boolean expireClientSide() throws Exception {
        return Boolean.TRUE.equals(call("expire_client_side", null, Duration.ofSeconds(10)).get("parked"));
    }

    /** Closes the recipe and the session in the agent, then the connection. */
    @Override
    public void close() {
        try {
            if (!closed) {
                call("close", null, Duration.ofSeconds(30));
            }
        } catch (Exception e) {
            // closing is best effort; the connection's end closes the session in the agent too
        } finally {
            closeSocket();
        }
    }

    private void closeSocket() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
