package io.lockchaos.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a client learned about its lock right after acquiring: what an acquire's ok completion records. A lock of your
 * own makes one with {@link #fenced}, {@link #leased} or {@link #session}, which say what kind of grant it is and so
 * where the worker's critical section is most exposed (see {@link Kind}).
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
 * @param kind what kind of grant this is: fenced, leased without a token, or bound to a session
 */
public record Grant(String node, long czxid, long session, long owner, long seq, long notifications,
                    Map<String, Object> facts, Kind kind) {
    /**
     * What kind of grant a lock gives, which decides where the worker's critical section (read the protected set,
     * hold, write it back, and a fenced write with the token) reaches its danger point, the moment a pause of the
     * holder hurts most.
     */
    public enum Kind {
        /**
         * The grant carries a fencing token ({@link #czxid}): the holder's writes carry it, and the danger point is
         * just before them, so a paused holder's write arrives stale and the service can refuse it.
         */
        FENCED,
        /**
         * No token, and the holder's right ends with a lease ({@link LockClient#validUntilNanos}), however its
         * connections fare: the danger point is after the hold and its last look at the lease, just before the
         * protected set is written back, where a pause lets the lease run out unseen (a Redis lock, ShedLock).
         */
        LEASED,
        /**
         * No token, and the holder's right lasts as long as its session (connection states tell it when that is in
         * doubt): the danger point is before the critical section reads, where a pause lets the session expire.
         */
        SESSION;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The kind with this wire name, or null. */
        public static Kind parse(String s) {
            for (Kind k : values()) {
                if (k.wireName().equals(s)) {
                    return k;
                }
            }
            return null;
        }

        /**
         * The kind of a grant made without one (the constructors without {@code kind}): fenced with a token, else
         * leased when the service told the client anything more ({@code facts}), else bound to its session.
         */
        public static Kind implied(long token, Map<String, Object> facts) {
            return token >= 0 ? FENCED : facts != null && !facts.isEmpty() ? LEASED : SESSION;
        }
    }

    public Grant {
        facts = facts == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        kind = kind == null ? Kind.implied(czxid, facts) : kind;
        if (kind == Kind.FENCED && czxid < 0) {
            throw new IllegalArgumentException("a fenced grant needs a token (0 or more), got " + czxid);
        }
    }

    /** A grant whose kind follows from its token and facts ({@link Kind#implied}). */
    public Grant(String node, long czxid, long session, long owner, long seq, long notifications,
                 Map<String, Object> facts) {
        this(node, czxid, session, owner, seq, notifications, facts, null);
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
     * without one: its holders' writes are then not fenced) and the session it was granted on (its owner too). With a
     * token it is {@link Kind#FENCED}, without one {@link Kind#SESSION}: a leased lock says {@link #leased}.
     */
    public static Grant of(String node, long token, long session) {
        return new Grant(node, token, session, session, sequenceOf(node), -1, Map.of(),
                token >= 0 ? Kind.FENCED : Kind.SESSION);
    }

    /** A {@link Kind#FENCED} grant of your own lock: {@code token} (0 or more) fences the holder's writes. */
    public static Grant fenced(String node, long token, long session) {
        return new Grant(node, token, session, session, sequenceOf(node), -1, Map.of(), Kind.FENCED);
    }

    /**
     * A {@link Kind#LEASED} grant of your own lock, without a token; {@code facts} (the lease's end, the row's
     * owner: anything the history should show) are recorded with it.
     */
    public static Grant leased(String node, long session, Map<String, Object> facts) {
        return new Grant(node, -1, session, session, sequenceOf(node), -1, facts, Kind.LEASED);
    }

    /** A {@link Kind#SESSION} grant of your own lock, without a token. */
    public static Grant session(String node, long session) {
        return new Grant(node, -1, session, session, sequenceOf(node), -1, Map.of(), Kind.SESSION);
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
        if (kind != Kind.implied(czxid, facts)) {
            m.put("grant_kind", kind.wireName()); // said only where the token and the facts do not say it already
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
