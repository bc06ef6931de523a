package io.lockchaos.checker;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.history.Times;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fencing tokens: among the writes a resource accepted, tokens never go backwards in real time. A write the resource
 * accepted (ok with {@code accepted: true}) whose token is lower than that of an accepted write that had completed
 * before it was invoked is a violation. Writes the resource rejected ({@code accepted: false}) are fencing at work and
 * are counted. Concurrent writes may be accepted in either order, so they are never compared.
 */
public final class FencingChecker implements Checker {
    @Override
    public String name() {
        return "fencing";
    }

    /** An accepted write: positions of its invocation and completion, their times, and its token. */
    private record Write(long invokeAt, long doneAt, long invokeTime, long doneTime, long token, long index,
                         int process) {
    }

    /** What a history's fenced writes were: accepted ones per key, rejected tokens per key, and counts. */
    private record Writes(Map<String, List<Write>> accepted, Map<String, List<Long>> rejectedTokens, long rejected,
                          long indeterminate) {
    }

    @Override
    public CheckResult check(History h) {
        Writes writes = collect(h);
        if (writes.accepted().isEmpty() && writes.rejected() == 0) {
            return CheckResult.nothingToCheck(name(), "no fenced writes (write ok with a token)",
                    Map.of("indeterminate", writes.indeterminate()));
        }
        Anomalies anomalies = new Anomalies();
        long stale = 0;
        long acceptedCount = 0;
        for (Map.Entry<String, List<Write>> e : writes.accepted().entrySet()) {
            acceptedCount += e.getValue().size();
            stale += staleAccepted(e.getKey(), e.getValue(), anomalies);
        }
        long rejectedFresh = rejectedFresh(writes);
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("accepted", acceptedCount);
        stats.put("rejected_stale", writes.rejected() - rejectedFresh);
        stats.put("rejected_not_stale", rejectedFresh);
        stats.put("indeterminate", writes.indeterminate());
        stats.put("stale_accepted", stale);
        return CheckResult.of(name(), anomalies, stats);
    }

    /** Every fenced write that completed ok, accepted or rejected; indeterminate ones only counted. */
    private static Writes collect(History h) {
        Map<String, List<Write>> accepted = new HashMap<>();
        Map<String, List<Long>> rejectedTokens = new HashMap<>();
        long rejected = 0;
        long indeterminate = 0;
        List<Op> ops = h.ops();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.f() != Fn.WRITE || op.type() != OpType.INVOKE || op.isNemesis()) {
                continue;
            }
            OpType outcome = h.outcome(i);
            if (outcome == OpType.INFO) {
                indeterminate++;
                continue;
            }
            if (outcome != OpType.OK) {
                continue;
            }
            Op done = ops.get(h.completionOf(i));
            long token = done.longField("token", op.longField("token", -1));
            if (token < 0) {
                continue; // an unfenced write
            }
            String key = String.valueOf(op.key());
            if (done.boolField("accepted", true)) {
                accepted.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new Write(i, h.completionOf(i), op.time(), done.time(), token, done.index(),
                                op.process()));
            } else {
                rejected++;
                rejectedTokens.computeIfAbsent(key, k -> new ArrayList<>()).add(token);
            }
        }
        return new Writes(accepted, rejectedTokens, rejected, indeterminate);
    }

    /**
     * The accepted writes of {@code key} whose token is below that of an accepted write completed before they were
     * invoked, each reported; concurrent writes are never compared.
     */
    private static long staleAccepted(String key, List<Write> writes, Anomalies anomalies) {
        List<Write> byInvoke = new ArrayList<>(writes);
        byInvoke.sort(Comparator.comparingLong(Write::invokeAt));
        List<Write> byDone = new ArrayList<>(writes);
        byDone.sort(Comparator.comparingLong(Write::doneAt));
        long stale = 0;
        int d = 0;
        Write best = null;
        for (Write w : byInvoke) {
            while (d < byDone.size() && byDone.get(d).doneAt() < w.invokeAt()) {
                Write c = byDone.get(d++);
                if (best == null || c.token() > best.token()) {
                    best = c;
                }
            }
            if (best != null && w.token() < best.token()) {
                stale++;
                anomalies.add(Anomaly.of(AnomalyKind.STALE_WRITE_ACCEPTED, key, List.of(w.index(), best.index()),
                        w.invokeTime(), w.doneTime(), "the resource " + key + " accepted process " + w.process()
                                + "'s write with token " + w.token() + " at " + Times.at(w.doneTime())
                                + " after it had accepted token " + best.token() + " from process " + best.process()
                                + " at " + Times.at(best.doneTime()),
                        Anomaly.details("token", w.token(), "newer_token", best.token())));
            }
        }
        return stale;
    }

    /**
     * Rejected tokens at least as high as everything ever accepted on their key: fresh, so the resource refused
     * wrongly. The highest accepted token only grows, so comparing with the final one is exact.
     */
    private static long rejectedFresh(Writes writes) {
        long fresh = 0;
        for (Map.Entry<String, List<Long>> e : writes.rejectedTokens().entrySet()) {
            long max = writes.accepted().getOrDefault(e.getKey(), List.of()).stream().mapToLong(Write::token).max()
                    .orElse(-1);
            for (long t : e.getValue()) {
                if (max >= 0 && t >= max) {
                    fresh++;
                }
            }
        }
        return fresh;
    }
}
