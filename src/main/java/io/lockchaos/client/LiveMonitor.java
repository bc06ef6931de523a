package io.lockchaos.client;

import io.lockchaos.checker.LockHolds;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Op;
import java.util.List;
import java.util.function.Consumer;

/**
 * Watches ops as they are recorded and notices the first grant the recipe forbids (a second exclusive holder, a writer
 * among readers, one lease too many), so a run can say "double holder" the moment it happens. It runs the checkers'
 * own hold analysis live ({@link LockHolds.Live}), so what it prints is what the mutual exclusion checker will find,
 * except that a release counts from its invocation until it is seen to fail. The checkers still decide the verdict
 * from the whole history; this only tells early.
 */
public final class LiveMonitor implements java.util.function.Consumer<Op> {
    /**
     * The first forbidden grant seen.
     *
     * @param timeNs when, on the history's clock
     * @param key the lock ("" for a keyless history)
     * @param holders how many processes held it then, the newcomer included
     * @param newcomer the process whose grant the recipe forbade
     */
    public record Detection(long timeNs, String key, int holders, int newcomer) {
    }

    private final LockHolds.Live holds;
    private final Consumer<Detection> onFirst;
    private volatile Detection first;

    /** @param onFirst told once, from the recording thread, when the first forbidden grant is seen */
    public LiveMonitor(Recipe recipe, Consumer<Detection> onFirst) {
        this.holds = new LockHolds.Live(recipe);
        this.onFirst = onFirst;
    }

    /** The first forbidden grant, or null. */
    public Detection first() {
        return first;
    }

    @Override
    public synchronized void accept(Op op) {
        List<LockHolds.Live.Conflict> found = holds.accept(op);
        if (!found.isEmpty() && first == null) {
            LockHolds.Live.Conflict c = found.get(0);
            first = new Detection(op.time(), c.key(), (int) c.holders().stream().distinct().count() + 1, c.process());
            onFirst.accept(first);
        }
    }
}
