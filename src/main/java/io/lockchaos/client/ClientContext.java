package io.lockchaos.client;

import io.lockchaos.api.LockContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.zookeeper.ZooKeeper;

/**
 * The one {@link LockContext} there is: what the runner gives a client in its own JVM and what an agent gives one in
 * its JVM, from the same {@link LockSettings}, so that a lock sees the same values and its reports mean the same
 * wherever it runs. Where the reports go is the caller's: the runner records them, an agent sends them to the runner.
 */
public final class ClientContext implements LockContext {
    /**
     * Where the connection states a lock reports go: the state, the session it is about, and why (a revocation's
     * reason, {@link LockContext#revoked}; null for a connection state).
     */
    public interface States {
        void report(String state, long session, String why);
    }

    private final LockSettings settings;
    private final IntSupplier process;
    private final States states;
    private final Consumer<Supplier<ZooKeeper>> onHandle;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile LongSupplier sessionId = () -> 0;
    private volatile Supplier<byte[]> password = () -> null;
    private volatile boolean sessionGiven;
    private volatile Supplier<ZooKeeper> zookeeper;

    /**
     * @param process the process the client is opened for (the runner's changes after an indeterminate op)
     * @param onHandle told of the client's ZooKeeper handle when the lock gives one (the runner's nemesis expires
     *     it); null when nothing is to be told
     */
    public ClientContext(LockSettings settings, IntSupplier process, States states,
                         Consumer<Supplier<ZooKeeper>> onHandle) {
        this.settings = settings;
        this.process = process;
        this.states = states;
        this.onHandle = onHandle;
    }

    /**
     * The server the client's ZooKeeper handle is connected to now, as its position in {@code connect} from 1, or 0
     * when the lock gave no handle or it is not connected. ZooKeeper's client says its remote address only in its
     * description ({@code ClientCnxn}'s {@code remoteserver:}); the connect string lists each server's address once.
     */
    public int connectedServer() {
        Supplier<ZooKeeper> z = zookeeper;
        ZooKeeper zk = z == null ? null : z.get();
        if (zk == null || !zk.getState().isConnected()) {
            return 0;
        }
        return serverIn(String.valueOf(zk), settings.connect());
    }

    /** The position from 1 in {@code connect} of the {@code remoteserver:} a handle's description names, or 0. */
    static int serverIn(String description, String connect) {
        int at = description.indexOf("remoteserver:");
        if (at < 0 || connect == null) {
            return 0;
        }
        String remote = description.substring(at + "remoteserver:".length()).split("\\s+", 2)[0];
        String port = remote.substring(remote.lastIndexOf(':') + 1);
        String[] servers = connect.split(",");
        for (int i = 0; i < servers.length; i++) {
            String s = servers[i].trim();
            if (s.substring(s.lastIndexOf(':') + 1).equals(port) && remote.contains(s.substring(0,
                    s.lastIndexOf(':')))) {
                return i + 1;
            }
        }
        return 0;
    }

    /** The session the history names: the one the lock said ({@link #session}), else its handle's, else 0. */
    public long sessionId() {
        return sessionId.getAsLong();
    }

    /**
     * The session the nemesis acts on: the ZooKeeper handle's own when the lock gave one (0 while it has none, as
     * {@link SessionControl} says), else the one the lock said.
     */
    public long targetSessionId() {
        Supplier<ZooKeeper> z = zookeeper;
        if (z != null) {
            ZooKeeper zk = z.get();
            return zk == null ? 0 : zk.getSessionId();
        }
        return sessionId.getAsLong();
    }

    /** The password of {@link #targetSessionId}, or null. */
    public byte[] targetPassword() {
        Supplier<ZooKeeper> z = zookeeper;
        if (z != null) {
            ZooKeeper zk = z.get();
            return zk == null ? null : zk.getSessionPasswd();
        }
        return password.get();
    }

    /** The client's current ZooKeeper handle, or null (none now, or a lock that gave none). */
    public ZooKeeper zookeeperHandle() {
        Supplier<ZooKeeper> z = zookeeper;
        return z == null ? null : z.get();
    }

    public LockSettings lockSettings() {
        return settings;
    }

    @Override
    public String connectString() {
        return settings.connect();
    }

    @Override
    public List<String> endpoints() {
        return List.of(settings.connect().split(","));
    }

    @Override
    public Map<String, String> routes() {
        return settings.routes();
    }

    @Override
    public String key() {
        return settings.key();
    }

    @Override
    public List<String> allKeys() {
        return settings.allKeys();
    }

    @Override
    public boolean read() {
        return settings.read();
    }

    @Override
    public int process() {
        return process.getAsInt();
    }

    @Override
    public Duration sessionTimeout() {
        return Duration.ofMillis(settings.sessionTimeoutMillis());
    }

    @Override
    public Duration connectionTimeout() {
        return settings.connectionTimeout();
    }

    @Override
    public Duration lease() {
        return Duration.ofMillis(settings.leaseMillis());
    }

    @Override
    public Optional<Duration> leaseAsked() {
        return settings.leaseAsked() ? Optional.of(lease()) : Optional.empty();
    }

    @Override
    public Map<String, String> settings() {
        return settings.options();
    }

    @Override
    public Duration requestTimeout() {
        return Duration.ofMillis(settings.requestTimeoutMillis());
    }

    @Override
    public void state(String state, long session) {
        states.report(state, session, null);
    }

    @Override
    public void state(String state) {
        states.report(state, sessionId(), null);
    }

    @Override
    public void revoked(String why) {
        states.report(REVOKED, sessionId(), why == null ? "revoked" : why);
    }

    @Override
    public void session(LongSupplier id, Supplier<byte[]> pw) {
        sessionGiven = true;
        sessionId = id;
        password = pw;
    }

    @Override
    public void zookeeper(Supplier<ZooKeeper> handle) {
        zookeeper = handle;
        if (!sessionGiven) {
            sessionId = () -> {
                ZooKeeper zk = handle.get();
                return zk == null ? 0 : zk.getSessionId();
            };
            password = () -> {
                ZooKeeper zk = handle.get();
                return zk == null ? null : zk.getSessionPasswd();
            };
        }
        if (onHandle != null) {
            onHandle.accept(handle);
        }
    }

    @Override
    public Map<String, Object> attributes() {
        return attributes;
    }
}
