package io.lockchaos.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a client learned about its lock right after acquiring: what an acquire's ok completion records. A lock of your
 * own makes one with {@link #of}.
 *
 * @param node the lock node path (for a lock without nodes: its name)
 * @param czxid the fencing token, -1 for none: for ZooKeeper's locks the node's creation zxid (unlike the sequence
 *     number, it never restarts)
 * @param session the client's current session id
 * @param owner the node's ephemeral owner; differs from {@code session} in the CURATOR-604 case
 * @param seq the sequence number parsed from the node name, or -1
 * @param notifications watch notifications this acquire received before it was granted, or -1 when not counted
 * @param facts what else the lock service told the client (a Redis lock's value, instances and validity), recorded
 *     with the grant; empty for ZooKeeper's locks
 */
public record Grant(String node, long czxid, long session, long owner, long seq, long notifications,
                    Map<String, Object> facts) {
    public Grant {
        facts = facts == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }

    public Grant(String node, long czxid, long session, long owner, long seq, long notifications) {
        this(node, czxid, session, owner, seq, notifications, Map.of());
    }

    /** A grant whose watch notifications were not counted. */
    public Grant(String node, long czxid, long session, long owner, long seq) {
        this(node, czxid, session, owner, seq, -1);
    }

    /**
     * A grant as a lock of your own reports it: its lock node or name, its fencing token (-1 for a lock
     * without one: its holders' writes are then not fenced) and the session it was granted on (its owner too).
     */
    public static Grant of(String node, long token, long session) {
        return new Grant(node, token, session, session, sequenceOf(node), -1);
    }

    /** The value an acquire's ok completion carries in the history. */
    public Map<String, Object> toValue() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", node);
        if (czxid >= 0 || facts.isEmpty()) {
            m.put("token", czxid); // a lock without fencing tokens (Redis) records none rather than -1
        }
        m.put("session", session);
        m.put("owner", owner);
        m.put("seq", seq);
        if (notifications >= 0) {
            m.put("notifications", notifications);
        }
        m.putAll(facts);
        return m;
    }

    /** The ten-digit suffix ZooKeeper appends to sequential nodes, or -1. */
    public static long sequenceOf(String path) {
        int n = path.length();
        if (n < 10) {
            return -1;
        }
        String tail = path.substring(n - 10);
        for (int i = 0; i < tail.length(); i++) {
            if (!Character.isDigit(tail.charAt(i))) {
                return -1;
            }
        }
        return Long.parseLong(tail);
    }
}
