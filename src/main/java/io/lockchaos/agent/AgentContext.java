package io.lockchaos.agent;

import io.lockchaos.api.LockContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What a client in an agent is given, from the runner's {@code open} command, and where its reports go: connection
 * states to the runner as events, its session and ZooKeeper handle to the agent's answers to the nemesis' commands.
 * The ZooKeeper handle is kept as an Object so that a user's lock on another store runs without ZooKeeper's classes.
 */
final class AgentContext implements LockContext {
    /** Sends one state event: the state and the session it is about. */
    interface States {
        void send(String state, long about);
    }

    private final Map<String, Object> open;
    private final States states;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile LongSupplier sessionId = () -> 0;
    private volatile Supplier<byte[]> password = () -> null;
    private volatile boolean sessionGiven;
    private volatile Supplier<?> zookeeper;

    AgentContext(Map<String, Object> open, States states) {
        this.open = open;
        this.states = states;
    }

    /**
     * The session the nemesis acts on: the ZooKeeper handle's own when the lock gave one (0 while it has none, as the
     * in-process clients' {@code SessionControl} says), else what the lock reported.
     */
    long sessionId() {
        Object zk = zookeeperHandle();
        if (zookeeper != null) {
            return zk == null ? 0 : ((org.apache.zookeeper.ZooKeeper) zk).getSessionId();
        }
        return sessionId.getAsLong();
    }

    byte[] password() {
        Object zk = zookeeperHandle();
        if (zookeeper != null) {
            return zk == null ? null : ((org.apache.zookeeper.ZooKeeper) zk).getSessionPasswd();
        }
        return password.get();
    }

    /** The client's current ZooKeeper handle, or null (none now, or a lock that gave none). */
    Object zookeeperHandle() {
        Supplier<?> z = zookeeper;
        return z == null ? null : z.get();
    }

    private long number(String name, long otherwise) {
        return open.get(name) instanceof Number n ? n.longValue() : otherwise;
    }

    @Override
    public String connectString() {
        return (String) open.get("connect");
    }

    @Override
    public List<String> endpoints() {
        return List.of(connectString().split(","));
    }

    @Override
    public String key() {
        return (String) open.get("key");
    }

    @Override
    public List<String> allKeys() {
        List<String> keys = new ArrayList<>();
        if (open.get("keys") instanceof List<?> l) {
            for (Object k : l) {
                keys.add((String) k);
            }
        }
        return keys;
    }

    @Override
    public boolean read() {
        return Boolean.TRUE.equals(open.get("read"));
    }

    @Override
    public int process() {
        return (int) number("process", 0);
    }

    @Override
    public Duration sessionTimeout() {
        return Duration.ofMillis(number("session_timeout_ms", 10_000));
    }

    @Override
    public Duration connectionTimeout() {
        return Duration.ofMillis(number("connection_timeout_ms", 5_000));
    }

    @Override
    public Duration lease() {
        return Duration.ofMillis(number("lease_ms", 10_000));
    }

    @Override
    public Duration requestTimeout() {
        return Duration.ofMillis(number("request_timeout_ms", 100));
    }

    @Override
    public void state(String state, long session) {
        states.send(state, session);
    }

    @Override
    public void state(String state) {
        states.send(state, sessionId.getAsLong());
    }

    @Override
    public void session(LongSupplier id, Supplier<byte[]> pw) {
        sessionGiven = true;
        sessionId = id;
        password = pw;
    }

    @Override
    public void zookeeper(Supplier<org.apache.zookeeper.ZooKeeper> handle) {
        zookeeper = handle;
        if (!sessionGiven) {
            sessionId = () -> {
                org.apache.zookeeper.ZooKeeper zk = handle.get();
                return zk == null ? 0 : zk.getSessionId();
            };
            password = () -> {
                org.apache.zookeeper.ZooKeeper zk = handle.get();
                return zk == null ? null : zk.getSessionPasswd();
            };
        }
    }

    @Override
    public Map<String, Object> attributes() {
        return attributes;
    }
}
