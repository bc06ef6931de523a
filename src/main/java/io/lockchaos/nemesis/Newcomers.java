package io.lockchaos.nemesis;

import io.lockchaos.cluster.ServerNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The servers a run's membership faults brought in that the ensemble never had: which spares were started (each is
 * started once, with empty data, and never asked to join again), and which of them are voting members now, so that
 * role targets (leader, follower) can name them while they are.
 */
public final class Newcomers {
    private int used;
    private final List<ServerNode> started = new ArrayList<>();
    private final List<ServerNode> joined = new ArrayList<>();

    /** The next {@code count} of {@code spares} not used yet, marked used. */
    public synchronized List<ServerNode> take(List<ServerNode> spares, int count) {
        if (used + count > spares.size()) {
            throw new IllegalStateException("no server left to join: " + spares.size() + " spare(s) laid out, "
                    + used + " used");
        }
        List<ServerNode> out = List.copyOf(spares.subList(used, used + count));
        used += count;
        started.addAll(out);
        return out;
    }

    public synchronized void joined(List<ServerNode> ns, boolean in) {
        joined.removeAll(ns);
        if (in) {
            joined.addAll(ns);
        }
    }

    /** The newcomers that are voting members now. */
    public synchronized List<ServerNode> joined() {
        return List.copyOf(joined);
    }

    /** Every newcomer started so far, member or not. */
    public synchronized List<ServerNode> started() {
        return List.copyOf(started);
    }

    /** Forgets a newcomer that left and was stopped. */
    public synchronized void gone(ServerNode n) {
        started.remove(n);
        joined.remove(n);
    }
}
