package io.lockchaos.checker;

/**
 * One grant of one lock key to one process, with the windows in which it certainly and possibly held it. Times are
 * nanoseconds; {@link #OPEN} marks a window that lasts to the end of the history.
 *
 * <p>A process certainly holds from its acquire's ok completion to its release's invocation and possibly holds from
 * the acquire's invocation to the release's completion. An indeterminate acquire has no certain window and a possible
 * one that never ends.
 *
 * @param process who held
 * @param key the lock key held (each key of a multi-lock gets its own hold)
 * @param mode exclusive, read or write
 * @param acquireIndex op index of the acquire invocation
 * @param grantIndex op index of the acquire's ok completion, or -1
 * @param releaseIndex op index of the release invocation that ended the certain window, or -1
 * @param certainStart start of the certain window, or {@link #OPEN} when there is none
 * @param certainEnd end (exclusive) of the certain window
 * @param possibleStart start of the possible window
 * @param possibleEnd end of the possible window
 * @param grant what the acquire's ok completion said about the lock node, or {@link Grant#NONE}
 * @param release how the hold ended
 * @param depth 0 for an outer hold; n for the n-th nested re-acquire of a reentrant lock
 */
public record Hold(int process, String key, Mode mode, long acquireIndex, long grantIndex, long releaseIndex,
                   long certainStart, long certainEnd, long possibleStart, long possibleEnd, Grant grant,
                   ReleaseOutcome release, int depth) {
    public static final long OPEN = Long.MAX_VALUE;

    public boolean isCertain() {
        return certainStart != OPEN;
    }

    /** How a lock is held. */
    public enum Mode { EXCLUSIVE, READ, WRITE }

    /** How a hold ended. */
    public enum ReleaseOutcome {
        /** The release completed ok. */
        RELEASED,
        /** The release reported that the lock was no longer held: the lock was lost while held. */
        LOST,
        /** The release's outcome is unknown (info, or the history ended during it). */
        INDETERMINATE,
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
     * @param seq the node's sequence number (queue position), or -1
     */
    public record Grant(String node, long token, long session, long owner, long seq) {
        public static final Grant NONE = new Grant(null, -1, 0, 0, -1);

        /** The queue position to order waiters by: the czxid when known (sequence numbers restart), else seq. */
        public long queuePosition() {
            return token >= 0 ? token : seq;
        }

        public boolean ownerMismatch() {
            return session != 0 && owner != 0 && session != owner;
        }
    }
}
