package io.lockchaos.redis;

/** The Lua scripts the correct Redis locks run (atomic on one instance). */
final class Scripts {
    /** Deletes KEYS[1] only if it still holds ARGV[1]: Redlock's release. Returns 1 when deleted, 0 otherwise. */
    static final String COMPARE_AND_DELETE =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

    private Scripts() {
    }
}
