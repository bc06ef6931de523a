package io.lockchaos.client;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a client learned about its lock node right after acquiring.
 *
 * @param node the lock node path
 * @param czxid the node's creation zxid: the fencing token (unlike the sequence number, it never restarts)
 * @param session the client's current session id
 * @param owner the node's ephemeral owner; differs from {@code session} in the CURATOR-604 case
 * @param seq the sequence number parsed from the node name, or -1
 * @param notifications watch notifications this acquire received before it was granted, or -1 when not counted
 */
public record Grant(String node, long czxid, long session, long owner, long seq, long notifications) {
    /** A grant whose watch notifications were not counted. */
    public Grant(String node, long czxid, long session, long owner, long seq) {
        this(node, czxid, session, owner, seq, -1);
    }

    /** The value an acquire's ok completion carries in the history. */
    public Map<String, Object> toValue() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", node);
        m.put("token", czxid);
        m.put("session", session);
        m.put("owner", owner);
        m.put("seq", seq);
        if (notifications >= 0) {
            m.put("notifications", notifications);
        }
        return m;
    }

    /** The ten-digit suffix ZooKeeper appends to sequential nodes, or -1. */
    static long sequenceOf(String path) {
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
