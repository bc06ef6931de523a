package io.lockchaos.checker.linear;

import io.lockchaos.history.Fn;

/**
 * One operation as the search sees it: a function with its input and (when known) output, and the real-time window
 * in which it must take effect.
 *
 * @param id position in its partition (0..n-1)
 * @param index the history index of the invocation, for reports (-1 for a synthetic release)
 * @param process who performed it
 * @param f what it does
 * @param input the invocation's value
 * @param output the completion's value; meaningless when {@code known} is false
 * @param known whether the op completed ok (its output is known)
 * @param required whether it must take effect (ok, or a release the lock service must have made), or may also never
 *     have (info, or a release it may have made)
 * @param invokeTime the earliest point it can take effect, in the order of the history (not a clock time)
 * @param returnTime the latest; {@code Long.MAX_VALUE} when it has none
 * @param releasesHold for a release by the lock service itself (an expired session), the index of the acquire whose
 *     hold it ends (with everything nested in it); -1 for every other op. It ends that hold only: never another.
 * @param hold for an acquire, the identity of the hold it creates: its index when a release by the lock service may
 *     name that hold, else {@link #ANONYMOUS}. Holds nobody names are told apart by nothing, so the search's cache
 *     sees one state where it would otherwise see one per acquire (Knossos' mutex is just locked or not).
 */
public record LinOp(int id, long index, int process, Fn f, Object input, Object output, boolean known,
                    boolean required, long invokeTime, long returnTime, long releasesHold, long hold) {
    /** The identity of a hold no release by the lock service names; above every index, so it sorts last. */
    public static final long ANONYMOUS = Long.MAX_VALUE;

    /** Whether the lock service, not the process, performs this release. */
    public boolean implicitRelease() {
        return releasesHold >= 0;
    }

    /** The same op with another id (after pruning). */
    LinOp withId(int newId) {
        return new LinOp(newId, index, process, f, input, output, known, required, invokeTime, returnTime,
                releasesHold, hold);
    }
}
