package io.lockchaos.checker;

import io.lockchaos.api.Grant;
import io.lockchaos.history.EdnValues;
import io.lockchaos.history.Op;

/**
 * One grant of one lock key to one process, with the windows in which it certainly and possibly held it.
 *
 * <p>Windows are judged by position in the history (Jepsen's real-time order: the history is appended at one
 * serialization point, so an earlier line happened earlier), never by {@code time}, which is only for durations and
 * reports: real histories have equal times, and Jepsen's per-thread clocks can step backwards between lines. A window
 * {@code [from, until)} covers the ops at positions {@code from <= p < until}; {@link #OPEN} marks one that lasts to the
 * end of the history. Positions are distinct, so two windows either overlap or do not: there are no ties.
 *
 * <p>A process certainly holds from its acquire's ok completion to the invocation of the release that gives the hold
 * back, or to the {@code REVOKED} state that tells it the lock was taken away (both its windows end there), or to its
 * retirement (an info completion of any of its ops: a crashed client's locks may outlive it or not),
 * and possibly holds from the acquire's invocation to the release's completion. An indeterminate acquire has no
 * certain window and a possible one that never ends.
 *
 * @param process who held
 * @param key the lock key held (each key of a multi-lock gets its own hold)
 * @param mode exclusive, read or write
 * @param acquireIndex op index of the acquire invocation; also the hold's identity in implied releases
 * @param grantIndex op index of the acquire's ok completion, or -1
 * @param releaseIndex op index of the op that ended the certain window (a release invocation or a retiring info), or -1
 * @param certain the certain window, or null when there is none
 * @param possible the possible window
 * @param grant what the acquire's ok completion said about the lock node, or {@link Grant#NONE}
 * @param release how the hold ended
 * @param depth 0 for an outer hold; n for the n-th nested re-acquire of the same mode of a reentrant lock
 * @param queued whether the acquire went through the lock's queue: the process held nothing on the key when it invoked
 *     it (a nested re-acquire or a read taken by the write holder does not queue)
 */
public record Hold(int process, String key, Mode mode, long acquireIndex, long grantIndex, long releaseIndex,
                   Window certain, Window possible, Grant grant, ReleaseOutcome release, int depth, boolean queued) {
    /** The end of a window that lasts to the end of the history (as a position or as a time). */
    public static final long OPEN = Long.MAX_VALUE;

    public boolean isCertain() {
        return certain != null;
    }

    /** Time of the certain window's start (for reports); {@link #OPEN} when there is none. */
    public long certainStart() {
        return certain == null ? OPEN : certain.fromTime();
    }

    /** Time of the certain window's end (for reports); {@link #OPEN} when it lasts to the end. */
    public long certainEnd() {
        return certain == null ? OPEN : certain.untilTime();
    }

    public long possibleStart() {
        return possible.fromTime();
    }

    public long possibleEnd() {
        return possible.untilTime();
    }

    /**
     * A window of positions {@code [from, until)} with the times of its ends.
     *
     * @param from first position inside
     * @param until first position after, or {@link #OPEN}
     * @param fromTime the time of the op at {@code from}
     * @param untilTime the time of the op at {@code until}, or {@link #OPEN}
     */
    public record Window(long from, long until, long fromTime, long untilTime) {
        public boolean contains(long position) {
            return from <= position && position < until;
        }

        public boolean overlaps(long otherFrom, long otherUntil) {
            return from < otherUntil && otherFrom < until;
        }

        public boolean isOpen() {
            return until == OPEN;
        }
    }

    /** How a lock is held. */
    public enum Mode {
        EXCLUSIVE, READ, WRITE;

        /** The mode an acquire or release names in its value ({@code mode: read|write}); exclusive otherwise. */
        public static Mode of(Object value) {
            Object m = value instanceof java.util.Map<?, ?> map ? EdnValues.nameOf(map.get("mode"))
                    : null;
            if ("read".equals(m)) {
                return READ;
            }
            return "write".equals(m) ? WRITE : EXCLUSIVE;
        }

        /** Whether the op names a mode at all. */
        public static boolean named(Op op) {
            return op.field("mode") != null;
        }
    }

    /** How a hold ended. */
    public enum ReleaseOutcome {
        /** The release completed ok. */
        RELEASED,
        /** The release reported that the lock was no longer held: the lock was lost while held. */
        LOST,
        /**
         * The library took the lock from its holder and told it so (a {@code REVOKED} state: leadership revoked by a
         * callback): the hold ended there, certainly.
         */
        REVOKED,
        /** The release's outcome is unknown (info, or the history ended during it). */
        INDETERMINATE,
        /** The process was retired (an info completion) while it held: it may or may not still hold. */
        RETIRED,
        /** The history ended with the lock still held. */
        NONE
    }

    /**
     * What an acquire's ok completion carries about the lock node.
     *
     * @param node the lock node path, or null
     * @param token the fencing token (the node's czxid), or -1
     * @param session the client's session id, or 0 when unknown
     * @param owner the node's ephemeral owner, or 0 when unknown
     * @param seq the node's sequence number, or -1
     * @param nodeGone whether the client found the node it was granted already deleted at the grant's own revision
     *     (the grant's {@code node_gone}): a grant on a lease that had expired while the acquire waited
     * @param parent the czxid of the lock node's parent (the grant's {@code parent_czxid}), which names one
     *     incarnation of the parent and so the numbering its sequence numbers belong to; -1 when not recorded
     */
    public record Grant(String node, long token, long session, long owner, long seq, boolean nodeGone, long parent) {
        public static final Grant NONE = new Grant(null, -1, 0, 0, -1);

        public Grant(String node, long token, long session, long owner, long seq) {
            this(node, token, session, owner, seq, false, -1);
        }

        /**
         * Where this grant queued, as far as it can be compared with other grants of its key: by its token when it
         * has one (a czxid never restarts), else by its sequence number within its parent's incarnation when that is
         * recorded, else not at all (sequence numbers restart when a container parent is reaped, so a bare one
         * compares with nothing).
         */
        public QueuePosition position() {
            if (token >= 0) {
                return new QueuePosition(QueuePosition.Kind.TOKEN, token, -1);
            }
            if (seq >= 0 && parent >= 0) {
                return new QueuePosition(QueuePosition.Kind.SEQUENCE, seq, parent);
            }
            return QueuePosition.NONE;
        }

        public boolean ownerMismatch() {
            return session != 0 && owner != 0 && session != owner;
        }
    }

    /**
     * A grant's place in its key's queue. Two positions compare only when they are of one kind and, for sequence
     * numbers, of one incarnation of the parent: a token and a sequence number, or sequence numbers of two
     * incarnations, say nothing about which queued first.
     *
     * @param kind what the value is
     * @param value the token or the sequence number
     * @param incarnation for a sequence number, its parent's czxid; -1 otherwise
     */
    public record QueuePosition(Kind kind, long value, long incarnation) {
        public static final QueuePosition NONE = new QueuePosition(Kind.NONE, -1, -1);

        /** What a queue position is read from. */
        public enum Kind { TOKEN, SEQUENCE, NONE }

        public boolean known() {
            return kind != Kind.NONE;
        }

        /** The group of positions this one may be compared with: equal groups compare, others never do. */
        public String group() {
            return kind == Kind.SEQUENCE ? "seq@" + incarnation : kind.name();
        }
    }
}
