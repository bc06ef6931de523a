package io.lockchaos.compare;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;

/**
 * How long the lock stayed with a holder that went silent: from the moment its connections were cut to the next grant
 * to any other process, read from a {@link FaultClass#HOLDER_CUT_OFF} run's history.
 *
 * @param seconds from the cut to the next grant; NaN when nobody was granted the lock after the cut
 * @param afterHeal whether that grant came only after the cut ended (the lock never recovered while the holder was
 *     silent)
 */
public record Recovery(double seconds, boolean afterHeal) {
    /** The recovery of the history's first isolated client, or null when no client was isolated. */
    public static Recovery of(History h) {
        long cut = -1;
        long healed = Long.MAX_VALUE;
        long victim = -1;
        for (Op op : h.ops()) {
            if (!op.isNemesis() || !"isolate-client".equals(op.stringField("fault"))) {
                continue;
            }
            // the cut is in force once its ok is recorded; the heal begins when its invoke is: a grant after that
            // may be the old holder's connections coming back
            if (op.f() == Fn.PARTITION && op.type() == OpType.OK && cut < 0) {
                cut = op.time();
                victim = op.longField("process", -1);
            } else if (op.f() == Fn.STOP && op.type() == OpType.INVOKE && cut >= 0) {
                healed = op.time();
                break;
            }
        }
        if (cut < 0) {
            return null;
        }
        for (Op op : h.ops()) {
            if (!op.isNemesis() && op.f() == Fn.ACQUIRE && op.type() == OpType.OK && op.time() > cut
                    && op.process() != victim) {
                return new Recovery((op.time() - cut) / 1e9, op.time() > healed);
            }
        }
        return new Recovery(Double.NaN, false);
    }
}
