package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A liveness promise of {@code acquire(timeout)}: the call returns (granted, timed out, or failed) within its timeout
 * plus {@code slack}. During a partition a Curator acquire may instead block for its connection timeout times its
 * retries. Every acquire whose invocation names its {@code timeout_ms} and that returned is measured from invocation
 * to completion, whatever the outcome (an exception is a return too); one still waiting when the history ends is
 * judged by the time it had waited by then.
 * Overruns are violations: a workload asks for this check by stating its slack ({@code acquire_slack_ms}).
 */
public final class AcquireTimeoutChecker implements Checker {
    private final long slackMillis;

    public AcquireTimeoutChecker(long slackMillis) {
        if (slackMillis < 0) {
            throw new IllegalArgumentException("slack must be at least 0 ms, got " + slackMillis);
        }
        this.slackMillis = slackMillis;
    }

    @Override
    public String name() {
        return "acquire-timeouts";
    }

    @Override
    public CheckResult check(History h) {
        Anomalies anomalies = new Anomalies();
        List<Op> ops = h.ops();
        long measured = 0;
        long overruns = 0;
        long worstNs = 0;
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.f() != Fn.ACQUIRE || op.type() != OpType.INVOKE || op.isNemesis()) {
                continue;
            }
            long timeout = op.longField("timeout_ms", -1);
            if (timeout < 0) {
                continue;
            }
            int done = h.completionOf(i);
            // one still waiting when the history ended has taken at least until then: judged once that is too long
            Op end = done < 0 ? null : ops.get(done);
            long endTime = end == null ? h.endTime() : end.time();
            long tookNs = endTime - op.time();
            long boundNs = (timeout + slackMillis) * 1_000_000L;
            if (end == null && tookNs <= boundNs) {
                continue;
            }
            measured++;
            if (tookNs <= boundNs) {
                continue;
            }
            overruns++;
            worstNs = Math.max(worstNs, tookNs);
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("process", op.process());
            d.put("timeout_ms", timeout);
            d.put("slack_ms", slackMillis);
            d.put("took_ms", tookNs / 1_000_000L);
            d.put("outcome", end == null ? "none: still waiting at the end of the history"
                    : end.type().name().toLowerCase(java.util.Locale.ROOT));
            anomalies.add(Anomaly.of(AnomalyKind.ACQUIRE_OVERRUN, op.key(), end == null ? List.of(op.index())
                    : List.of(op.index(), end.index()), op.time(), endTime, String.format(java.util.Locale.ROOT, "process %d's acquire with a %d ms"
                            + " timeout returned (%s) after %d ms, more than its timeout plus %d ms", op.process(),
                            timeout, d.get("outcome"), tookNs / 1_000_000L, slackMillis), d));
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("measured", measured);
        stats.put("overruns", overruns);
        stats.put("slack_ms", slackMillis);
        stats.put("longest_overrun_ms", worstNs / 1_000_000L);
        if (measured == 0) {
            return CheckResult.nothingToCheck(name(), "no returned acquire names its timeout_ms", stats);
        }
        return CheckResult.of(name(), anomalies, stats);
    }
}
