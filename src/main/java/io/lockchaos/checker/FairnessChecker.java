package io.lockchaos.checker;

import io.lockchaos.history.History;
import io.lockchaos.history.Times;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * FIFO fairness. Among acquires that succeeded, a FIFO recipe grants in queue order: the order of the lock nodes'
 * creation. An earlier waiter granted after a later one was overtaken. Positions are compared only where they are
 * comparable: tokens (czxids, which never restart) with tokens, and sequence numbers only with sequence numbers of the
 * same incarnation of the parent (they restart when a container parent is reaped). A grant without a comparable
 * position (its node was gone when read, so it has no token) is counted, never guessed. Grant order is
 * read from the ok completions, which is exact for exclusive holds because two of them cannot be granted at once
 * without a mutual exclusion violation. Read/write locks follow their own rule: a reader may pass a reader, nothing
 * may pass a queued writer. A waiter that gave up or lost its session is not overtaken: its new node has a new
 * position. Only queued grants take part: a nested re-acquire, or a read taken by the write holder (a downgrade), never
 * waits in the queue. For recipes that promise no order the checker only reports waits, and has checked nothing.
 */
public final class FairnessChecker implements Checker {
    private final Recipe recipe;

    public FairnessChecker(Recipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public String name() {
        return "fairness";
    }

    @Override
    public CheckResult check(History h) {
        LockHolds holds = LockHolds.of(h, recipe);
        Anomalies anomalies = new Anomalies();
        Map<String, Object> perKey = new LinkedHashMap<>();
        long overtakes = 0;
        long maxWait = 0;
        long unpositioned = 0;
        long positioned = 0;
        for (Map.Entry<String, List<Hold>> e : holds.byKey().entrySet()) {
            Map<String, List<Hold>> comparable = new LinkedHashMap<>();
            long keyMaxWait = 0;
            long waitSum = 0;
            int granted = 0;
            for (Hold x : e.getValue()) {
                if (!x.isCertain() || !x.queued()) {
                    continue;
                }
                granted++;
                long wait = Math.max(0, x.certainStart() - x.possibleStart());
                keyMaxWait = Math.max(keyMaxWait, wait);
                waitSum += wait;
                Hold.QueuePosition pos = x.grant().position();
                if (pos.known()) {
                    positioned++;
                    comparable.computeIfAbsent(pos.group(), g -> new ArrayList<>()).add(x);
                } else {
                    unpositioned++;
                }
            }
            long keyOvertakes = 0;
            if (recipe.fifo()) {
                for (List<Hold> grants : comparable.values()) {
                    keyOvertakes += overtakes(e.getKey(), grants, anomalies);
                }
            }
            overtakes += keyOvertakes;
            maxWait = Math.max(maxWait, keyMaxWait);
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("grants", granted);
            summary.put("overtakes", keyOvertakes);
            summary.put("max_wait_ns", keyMaxWait);
            summary.put("mean_wait_ns", granted == 0 ? 0 : waitSum / granted);
            perKey.put(e.getKey(), summary);
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("fifo", recipe.fifo());
        stats.put("overtakes", overtakes);
        stats.put("max_wait_ns", maxWait);
        stats.put("grants_without_position", unpositioned);
        stats.put("per_key", perKey.size() <= 100 ? perKey : Map.of("keys", perKey.size()));
        if (!recipe.fifo()) {
            return CheckResult.nothingToCheck(name(), recipe.name() + " promises no order of grants", stats);
        }
        if (positioned == 0) {
            return CheckResult.nothingToCheck(name(), "no grants with a comparable queue position (a token, or a sequence "
                    + "number with its parent's czxid)", stats);
        }
        return CheckResult.of(name(), anomalies, stats);
    }

    /**
     * Walks grants whose positions compare with each other in grant order, keeping the latest-queued grant so far (all
     * modes, and writers only); a grant whose position is below it was overtaken.
     */
    private long overtakes(String key, List<Hold> grants, Anomalies anomalies) {
        grants.sort(Comparator.comparingLong(x -> x.certain().from()));
        Hold maxAny = null;
        Hold maxWriter = null;
        long count = 0;
        for (Hold a : grants) {
            long pos = a.grant().position().value();
            // Readers may pass readers: a reader is overtaken only by a later-queued writer.
            Hold by = recipe.readWrite() && a.mode() == Hold.Mode.READ ? maxWriter : maxAny;
            if (by != null && by.grant().position().value() > pos && by.certain().from() < a.certain().from()) {
                count++;
                anomalies.add(Anomaly.of(AnomalyKind.FIFO_OVERTAKE, key,
                        List.of(a.grantIndex(), by.grantIndex()), by.certainStart(), a.certainStart(),
                        "process " + a.process() + " queued for " + LockHolds.describe(key) + " at "
                                + describe(a.grant().position()) + " but was granted at " + Times.at(a.certainStart())
                                + ", after process " + by.process() + " which queued later ("
                                + describe(by.grant().position()) + ") and was granted at "
                                + Times.at(by.certainStart()),
                        Anomaly.details("position", pos, "overtaken_by", by.grant().position().value(), "position_kind",
                                a.grant().position().group())));
            }
            if (maxAny == null || pos > maxAny.grant().position().value()) {
                maxAny = a;
            }
            if (a.mode() != Hold.Mode.READ && (maxWriter == null || pos > maxWriter.grant().position().value())) {
                maxWriter = a;
            }
        }
        return count;
    }

    private static String describe(Hold.QueuePosition p) {
        return p.kind() == Hold.QueuePosition.Kind.TOKEN ? "token " + p.value()
                : "sequence number " + p.value() + " of the parent made at " + p.incarnation();
    }
}
