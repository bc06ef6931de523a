package io.lockchaos.checker;

import io.lockchaos.history.History;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fencing tokens follow the lock's order: a grant asked for after another hold of the same key had certainly ended
 * (its release completed, or its process retired and the history says no more) must carry a higher token. ZooKeeper's
 * czxid does, whatever happens to the lock's parent node; the sequence number in the node's name does not: when the
 * parent container is reaped (it is empty between holds) and made again, numbering starts over, so a client that
 * fenced with it would have its writes rejected, or stale ones accepted. A token that does not grow is a violation
 * ({@code token-regression}); a sequence number that does not is a note ({@code sequence-restart}), since lockchaos
 * fences with the czxid and only shows what the sequence number would have done.
 */
public final class TokenOrderChecker implements Checker {
    private final Recipe recipe;

    public TokenOrderChecker(Recipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public String name() {
        return "token-order";
    }

    @Override
    public CheckResult check(History h) {
        LockHolds holds = LockHolds.of(h, recipe);
        Anomalies anomalies = new Anomalies();
        long ordered = 0;
        long tokenRegressions = 0;
        long seqRestarts = 0;
        for (Map.Entry<String, List<Hold>> e : holds.byKey().entrySet()) {
            List<Hold> grants = new ArrayList<>();
            for (Hold x : e.getValue()) {
                if (x.grantIndex() >= 0 && x.depth() == 0) {
                    grants.add(x);
                }
            }
            List<Hold> byEnd = new ArrayList<>(grants);
            byEnd.removeIf(x -> x.possible().isOpen());
            byEnd.sort(Comparator.comparingLong(x -> x.possible().until()));
            List<Hold> byAsk = new ArrayList<>(grants);
            byAsk.sort(Comparator.comparingLong(x -> x.possible().from()));
            Hold maxToken = null;
            Hold maxSeq = null;
            int ended = 0;
            for (Hold b : byAsk) {
                // positions, not op indexes: a history's indexes may have gaps
                while (ended < byEnd.size() && byEnd.get(ended).possible().until() <= b.possible().from()) {
                    Hold a = byEnd.get(ended++);
                    if (a.grant().token() >= 0 && (maxToken == null || a.grant().token() > maxToken.grant().token())) {
                        maxToken = a;
                    }
                    if (a.grant().seq() >= 0 && (maxSeq == null || a.grant().seq() > maxSeq.grant().seq())) {
                        maxSeq = a;
                    }
                }
                if (maxToken == null && maxSeq == null) {
                    continue;
                }
                ordered++;
                if (maxToken != null && b.grant().token() >= 0 && b.grant().token() <= maxToken.grant().token()) {
                    tokenRegressions++;
                    anomalies.add(finding(AnomalyKind.TOKEN_REGRESSION, e.getKey(), "token", maxToken, b,
                            maxToken.grant().token(), b.grant().token()));
                }
                if (maxSeq != null && b.grant().seq() >= 0 && b.grant().seq() <= maxSeq.grant().seq()) {
                    seqRestarts++;
                    anomalies.add(finding(AnomalyKind.SEQUENCE_RESTART, e.getKey(), "sequence number", maxSeq, b,
                            maxSeq.grant().seq(), b.grant().seq()));
                }
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("ordered_grants", ordered);
        stats.put("token_regressions", tokenRegressions);
        stats.put("sequence_restarts", seqRestarts);
        if (ordered == 0) {
            return CheckResult.nothingToCheck(name(), "no grant asked for after another hold of its key had ended",
                    stats);
        }
        return CheckResult.of(name(), anomalies, stats);
    }

    private static Anomaly finding(AnomalyKind kind, String key, String what, Hold before, Hold after, long was,
                                   long is) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("earlier_process", before.process());
        d.put("earlier_" + what.replace(' ', '_'), was);
        d.put("process", after.process());
        d.put(what.replace(' ', '_'), is);
        d.put("earlier_node", before.grant().node());
        d.put("node", after.grant().node());
        return Anomaly.of(kind, key, List.of(before.grantIndex(), after.grantIndex()), before.certainStart() == Hold.OPEN
                ? before.possibleStart() : before.certainStart(), after.possibleStart(), "process " + after.process()
                + " was granted " + LockHolds.describe(key) + " with " + what + " " + is + " (" + after.grant().node()
                + ") after process " + before.process() + "'s hold with " + what + " " + was + " ("
                + before.grant().node() + ") had ended", d);
    }
}
