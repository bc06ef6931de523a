package io.lockchaos.report;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.cluster.ServerLogs;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a double holder happened, told in order from the history and the servers' logs: the first holder's grant and
 * session, the faults that hit it, when it was told SUSPENDED and LOST, when the server expired its session (and so
 * deleted its lock node), when the second client was granted, and how long both held. For a client that stops only
 * on LOST, the window from the server's expiry to the LOST is what the application could not see. A stall of the
 * runner itself that crosses the story is told in it, where it began.
 *
 * @param key the lock
 * @param firstProcess the holder that lost the lock without acting on it
 * @param firstSession its session
 * @param events what happened, each with its time in ns on the history's clock, in time order
 * @param overlapNs how long both held
 * @param expiryToLostNs from the server's expiry of the first session to the first holder's LOST, or null
 */
public record OverlapStory(String key, int firstProcess, long firstSession, List<Event> events, long overlapNs,
                           Long expiryToLostNs) {
    /** One moment of the story. */
    public record Event(long timeNs, String what) {
    }

    /** The stories of a stored run's double holders; server expiries come from {@code runDir/servers}. */
    public static List<OverlapStory> forRun(Path runDir, History h, CheckResult result) throws IOException {
        Map<Long, Long> expiries = Map.of();
        for (Op op : h.ops()) {
            if (op.isNemesis() && op.f() == Fn.PHASE && op.type() == OpType.OK && op.field("wall_ms") != null) {
                expiries = ServerLogs.sessionExpiries(runDir.resolve("servers"), op.time(),
                        op.longField("wall_ms", 0));
                break;
            }
        }
        return of(h, result, expiries);
    }

    /** The story of each double holder (or over-capacity) anomaly in {@code result}. */
    public static List<OverlapStory> of(History h, CheckResult result, Map<Long, Long> serverExpiries) {
        List<OverlapStory> out = new ArrayList<>();
        for (CheckResult leaf : Reports.leaves(result)) {
            for (Anomaly a : leaf.anomalies()) {
                if (a.kind() == AnomalyKind.DOUBLE_HOLDER || a.kind() == AnomalyKind.OVER_CAPACITY) {
                    out.add(story(h, a, serverExpiries));
                }
            }
        }
        return out;
    }

    /** The position in {@code h} of the op whose index is {@code index}. */
    private static int positionOf(History h, long index) {
        for (int i = 0; i < h.size(); i++) {
            if (h.get(i).index() == index) {
                return i;
            }
        }
        throw new IllegalArgumentException("no op " + index);
    }

    private static OverlapStory story(History h, Anomaly a, Map<Long, Long> serverExpiries) {
        int secondAt = positionOf(h, a.ops().get(0));
        Op second = h.get(secondAt);
        Op first = h.get(positionOf(h, a.ops().get(1)));
        long session = first.longField("session", 0);
        // a grant on a node another session owns (CURATOR-604: the holder's own previous session) lasts as long as
        // that session: its expiry, not the holder's, is what ends the hold on the server
        long owner = first.longField("owner", session);
        boolean foreign = owner != 0 && owner != session;
        List<Event> events = new ArrayList<>();
        // a Redis grant names the lock's value: Redis locks have no session
        String lockValue = first.stringField("value");
        events.add(new Event(first.time(), "process " + first.process() + " is granted " + first.key()
                + (lockValue != null ? " with value " + lockValue : session == 0 ? "" // a lease row has no session
                : " on session 0x" + Long.toHexString(session))
                + (foreign ? ", on a node that session 0x" + Long.toHexString(owner) + " owns" : "")));
        Long suspended = null;
        Long lost = null;
        long mainPhase = mainPhaseStart(h);
        // what befell the second holder counts from its acquire's invocation: a waiter paused before the first grant
        int secondInvoke = h.invocationOf(secondAt);
        long secondFrom = secondInvoke < 0 ? second.time() : h.get(secondInvoke).time();
        for (int i = 0; i < h.size(); i++) {
            Op op = h.get(i);
            boolean hitsSecond = op.longField("process", Long.MIN_VALUE) == second.process();
            if (op.time() < (hitsSecond ? Math.min(first.time(), secondFrom) : first.time()) || op.time() > a.end()) {
                continue;
            }
            if (op.isNemesis() && op.type() == OpType.OK && (hits(op, first.process(), session) || hitsSecond)) {
                // schedules count from the main phase, histories from the start: give both, or the two disagree
                int inv = h.invocationOf(i);
                String when = inv < 0 || mainPhase < 0 ? "" : String.format(java.util.Locale.ROOT,
                        " (invoked at %.3f s, the schedule's at %.3f s)", h.get(inv).time() / 1e9,
                        (h.get(inv).time() - mainPhase) / 1e9);
                events.add(new Event(op.time(), "nemesis: " + op.f().wireName() + " " + op.stringField("fault")
                        + " of process " + (hitsSecond ? second.process() : first.process()) + when));
            } else if (op.isNemesis() && op.type() == OpType.OK && op.value() instanceof java.util.Map<?, ?> v
                    && "failover".equals(v.get("fault")) && v.get("promoted") != null) {
                // what the promoted replica had not replayed is what the failover lost
                events.add(new Event(op.time(), "nemesis: failover to server " + v.get("promoted")
                        + (v.get("fenced") instanceof List<?> f && !f.isEmpty() ? " (server" + (f.size() == 1 ? " "
                        : "s ") + f.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                        + " fenced)" : "") + (v.get("behind_bytes") instanceof Number b ? ", which was " + b
                        + " bytes of the old primary's log behind" : "")));
            } else if (op.isNemesis() && op.type() == OpType.OK && op.f() == Fn.PARTITION
                    && op.value() instanceof java.util.Map<?, ?> v && v.get("cut") instanceof List<?> cut
                    && !cut.isEmpty()) {
                events.add(new Event(op.time(), "nemesis: " + v.get("fault") + " cuts servers apart: " + cut));
            } else if (op.isNemesis() && op.type() == OpType.OK && op.value() instanceof java.util.Map<?, ?> v
                    && v.get("fault") != null && v.get("nodes") instanceof List<?> nodes) {
                // what happened to servers meanwhile: kills, restarts, pauses, clock jumps
                events.add(new Event(op.time(), "nemesis: " + op.f().wireName() + " " + op.stringField("fault")
                        + " of server" + (nodes.size() == 1 ? " " : "s ") + nodes.stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(", "))));
            } else if (op.f() == Fn.STATE && op.process() == first.process()) {
                String state = op.stringField("state");
                if ("SUSPENDED".equals(state) && suspended == null) {
                    suspended = op.time();
                    events.add(new Event(op.time(), "process " + first.process() + " is told SUSPENDED"));
                } else if ("LOST".equals(state) && lost == null) {
                    lost = op.time();
                    events.add(new Event(op.time(), "process " + first.process() + " is told LOST"));
                }
            }
        }
        Long expiry = serverExpiries.get(foreign ? owner : session);
        if (expiry != null) {
            events.add(new Event(expiry, "the server expires session 0x" + Long.toHexString(foreign ? owner : session)
                    + " and deletes " + (foreign ? "the lock node it owned" : "its lock node")));
        }
        events.add(new Event(second.time(), "process " + second.process() + " is granted " + second.key()
                + (second.longField("owner", 0) != second.longField("session", 0)
                ? " on a node its session does not own" : "")
                + (second.boolField("node_gone", false) ? " on a lock node already deleted when the service answered"
                + " (its lease expired while it waited)" : "")));
        // a runner frozen meanwhile starves its own clients: a reader must know before blaming the lock service
        long from = Math.min(first.time(), secondFrom);
        long to = Math.max(a.end(), second.time());
        for (RunnerStalls.Stall st : RunnerStalls.of(h)) {
            if (st.crosses(from, to)) {
                events.add(new Event(st.startNs(), st.told()));
            }
        }
        events.sort(java.util.Comparator.comparingLong(Event::timeNs));
        long overlap = a.details().get("overlap_ns") instanceof Number n ? n.longValue() : a.end() - a.start();
        Long window = expiry != null && lost != null ? lost - expiry : null;
        return new OverlapStory(a.key(), first.process(), session, List.copyOf(events), overlap, window);
    }

    /** When the main phase began (its phase marker's invocation), or -1 for a history without markers. */
    private static long mainPhaseStart(History h) {
        for (Op op : h.ops()) {
            if (op.isNemesis() && op.f() == Fn.PHASE && op.type() == OpType.INVOKE
                    && "main".equals(op.stringField("phase"))) {
                return op.time();
            }
        }
        return -1;
    }

    /** Whether a nemesis op names this process or session as its victim. */
    private static boolean hits(Op op, int process, long session) {
        return op.longField("process", Long.MIN_VALUE) == process || session != 0
                && (op.longField("session", 0) == session || op.longField("client_session", 0) == session);
    }

    /** The story as lines for a person. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "how the double holder of %s happened:", key));
        for (Event e : events) {
            out.add(String.format(Locale.ROOT, "  %8.3f s  %s", e.timeNs() / 1e9, e.what()));
        }
        out.add(String.format(Locale.ROOT, "  both held it for %.3f s", overlapNs / 1e9));
        if (expiryToLostNs != null) {
            out.add(String.format(Locale.ROOT, "  from the server's expiry to LOST: %.3f s", expiryToLostNs / 1e9));
        }
        return out;
    }

    /** JSON-shaped, for results.json. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", key);
        m.put("first_process", firstProcess);
        m.put("first_session", firstSession);
        List<Map<String, Object>> ev = new ArrayList<>();
        for (Event e : events) {
            Map<String, Object> one = new java.util.LinkedHashMap<>(); // a fixed order: results.json is reproducible
            one.put("time_ns", e.timeNs());
            one.put("what", e.what());
            ev.add(one);
        }
        m.put("events", ev);
        m.put("overlap_ns", overlapNs);
        if (expiryToLostNs != null) {
            m.put("expiry_to_lost_ns", expiryToLostNs);
        }
        return m;
    }
}
