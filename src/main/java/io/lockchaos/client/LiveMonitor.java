package io.lockchaos.client;

import io.lockchaos.history.Fn;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Watches ops as they are recorded and notices the first time more processes certainly hold a lock than it admits
 * (from an acquire's ok to the holder's release invocation), so a run can say "double holder" the moment it happens.
 * Read locks are not counted, and a process that gets an indeterminate result is forgotten (it never acts again). The checkers still decide the verdict from the whole history; this only tells early.
 */
public final class LiveMonitor implements Consumer<Op> {
    /**
     * The first overlap seen.
     *
     * @param timeNs when, on the history's clock
     * @param key the lock
     * @param holders how many processes held it then
     * @param newcomer the process whose grant made one too many
     */
    public record Detection(long timeNs, String key, int holders, int newcomer) {
    }

    private final int capacity;
    /** Per key, how many grants each process holds (reentrant grants count one each). */
    private final Map<String, Map<Integer, Integer>> held = new HashMap<>();
    /** The mode of each process's acquire in flight: a grant's value does not repeat it. */
    private final Map<Integer, String> pendingMode = new HashMap<>();
    private final Consumer<Detection> onFirst;
    private volatile Detection first;

    /** @param onFirst told once, from the recording thread, when the first overlap is seen */
    public LiveMonitor(int capacity, Consumer<Detection> onFirst) {
        this.capacity = capacity;
        this.onFirst = onFirst;
    }

    /** The first overlap, or null. */
    public Detection first() {
        return first;
    }

    @Override
    public synchronized void accept(Op op) {
        if (op.key() == null || op.isNemesis()) {
            return;
        }
        if (op.type() == OpType.INFO) {
            // a retired process never releases: forget it rather than count it as holding for ever
            held.values().forEach(h -> h.remove(op.process()));
            pendingMode.remove(op.process());
            return;
        }
        if (op.f() == Fn.ACQUIRE && op.type() == OpType.INVOKE) {
            pendingMode.put(op.process(), op.stringField("mode"));
            return;
        }
        if ("read".equals(op.stringField("mode")) || op.f() == Fn.ACQUIRE && op.type() == OpType.OK
                && "read".equals(pendingMode.get(op.process()))) {
            return; // readers share the lock
        }
        if (op.f() == Fn.ACQUIRE && op.type() == OpType.OK) {
            Map<Integer, Integer> holders = held.computeIfAbsent(op.key(), k -> new HashMap<>());
            holders.merge(op.process(), 1, Integer::sum);
            if (holders.size() > capacity && first == null) {
                first = new Detection(op.time(), op.key(), holders.size(), op.process());
                onFirst.accept(first);
            }
        } else if (op.f() == Fn.RELEASE && op.type() == OpType.INVOKE) {
            Map<Integer, Integer> holders = held.get(op.key());
            if (holders != null) {
                holders.computeIfPresent(op.process(), (p, n) -> n > 1 ? n - 1 : null);
            }
        }
    }
}
