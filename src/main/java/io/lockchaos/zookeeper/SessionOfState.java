package io.lockchaos.zookeeper;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Which session a Curator connection state is about, for the history: SUSPENDED and LOST concern the session the
 * client had (by LOST its handle may already be a new one, with id 0), CONNECTED and RECONNECTED the one it has now.
 * One per client; used in the runner and in client agents alike, so both record states the same way. Thread-safe.
 */
public final class SessionOfState {
    private final AtomicLong current = new AtomicLong();

    /** The session {@code state} is about, given the client's session id right now ({@code now}, 0 for none). */
    public long about(String state, long now) {
        if (state.equals("SUSPENDED") || state.equals("LOST")) {
            return current.get() != 0 ? current.get() : now;
        }
        if (now != 0) {
            current.set(now);
        }
        return now;
    }

    /** Takes the session the client connected with, unless a state already named one. */
    public void connected(long session) {
        current.compareAndSet(0, session);
    }

    /** The last session a state or the connection named (0 before any). */
    public long last() {
        return current.get();
    }
}
