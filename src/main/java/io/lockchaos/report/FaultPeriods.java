package io.lockchaos.report;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * When faults were in force, paired from the nemesis ops of a history. A pure function, so the timeline and the
 * plots shade the same periods.
 *
 * <p>The pairing rules, from the nemesis op's {@code f} (and, for foreign Jepsen ops kept as {@code fault}, from the
 * original name: {@code start-X} and {@code stop-X}):
 * <ul>
 *   <li>{@code start} (labelled by its value's {@code fault}), {@code partition} and {@code start-X} open a period
 *       that a {@code stop} or {@code stop-X} closes; {@code kill} opens one that {@code restart} closes;
 *       {@code pause} opens one that {@code resume} closes.</li>
 *   <li>A closer closes every open period of its family that it matches: the same fault name when it names one, and
 *       the same target ({@code node}, {@code nodes}, {@code target}, {@code targets} or {@code session} field, or a
 *       foreign op's value) when both name one. A closer that matches nothing is ignored.</li>
 *   <li>{@code heal} and {@code quiesce} close every open period.</li>
 *   <li>{@code expire} and any other fault are periods of their own, from invocation to completion.</li>
 *   <li>A period starts at the opener's invocation and ends at the closer's completion: the widest window in which
 *       the fault may have been in force. An opener that failed opened nothing; one that ended {@code info} may have,
 *       so it counts (Jepsen's nemesis records {@code info} for faults that did happen). A period still open at the
 *       end of the history lasts to its end and is marked {@code ended = false}.</li>
 * </ul>
 */
public final class FaultPeriods {
    private FaultPeriods() {
    }

    /**
     * One fault period.
     *
     * @param label what the fault did, e.g. {@code "partition n1"} or {@code "kill"}
     * @param start when the opener was invoked (ns)
     * @param end when the closer completed, or the end of the history (ns)
     * @param ended whether a closer ended it (false: it lasted to the end of the history)
     * @param openIndex op index of the opener's invocation
     * @param closeIndex op index of the closer's completion, or -1
     */
    public record Period(String label, long start, long end, boolean ended, long openIndex, long closeIndex) {
    }

    /** How a nemesis op takes part in pairing. */
    private enum Role { OPEN, CLOSE, CLOSE_ALL, INSTANT, NONE }

    /** A nemesis op's role, family (which closer ends it), fault name and target. */
    private record Kind(Role role, String family, String name, String target) {
    }

    private static final class Open {
        final Kind kind;
        final long start;
        final long index;

        Open(Kind kind, long start, long index) {
            this.kind = kind;
            this.start = start;
            this.index = index;
        }
    }

    /** Returns the fault periods of {@code h} in the order they opened. */
    public static List<Period> of(History h) {
        List<Period> done = new ArrayList<>();
        List<Open> open = new ArrayList<>();
        for (int i = 0; i < h.size(); i++) {
            Op inv = h.get(i);
            if (!inv.isNemesis() || inv.type() != OpType.INVOKE) {
                continue;
            }
            int c = h.completionOf(i);
            Op done1 = c < 0 ? null : h.get(c);
            if (done1 != null && done1.type() == OpType.FAIL) {
                continue; // it did not happen: nothing opened or closed
            }
            Kind k = kind(inv, done1);
            long end = done1 == null ? h.endTime() : done1.time();
            long endIndex = done1 == null ? -1 : done1.index();
            switch (k.role()) {
                case OPEN -> open.add(new Open(k, inv.time(), inv.index()));
                case INSTANT -> done.add(new Period(label(k), inv.time(), end, done1 != null, inv.index(), endIndex));
                case CLOSE, CLOSE_ALL -> {
                    for (Iterator<Open> it = open.iterator(); it.hasNext(); ) {
                        Open o = it.next();
                        if (k.role() == Role.CLOSE_ALL || closes(k, o.kind)) {
                            done.add(new Period(label(o.kind), o.start, end, true, o.index, endIndex));
                            it.remove();
                        }
                    }
                }
                default -> { }
            }
        }
        for (Open o : open) {
            done.add(new Period(label(o.kind), o.start, h.endTime(), false, o.index, -1));
        }
        done.sort((a, b) -> Long.compare(a.start(), b.start()));
        return List.copyOf(done);
    }

    private static boolean closes(Kind closer, Kind opened) {
        return closer.family().equals(opened.family())
                && (closer.name() == null || closer.name().equals(opened.name()))
                && (closer.target() == null || opened.target() == null || closer.target().equals(opened.target()));
    }

    private static String label(Kind k) {
        return k.target() == null ? k.name() : k.name() + " " + k.target();
    }

    private static Kind kind(Op inv, Op completion) {
        // The completion may say more (say, which node a kill picked), so its fields win; the invocation's fill in.
        String target = completion == null || target(completion) == null ? target(inv) : target(completion);
        String fault = completion == null || completion.stringField("fault") == null ? inv.stringField("fault")
                : completion.stringField("fault");
        Fn f = inv.f();
        switch (f) {
            case START: return new Kind(Role.OPEN, "stop", fault == null ? "fault" : fault, target);
            case PARTITION: return new Kind(Role.OPEN, "stop", fault == null ? "partition" : fault, target);
            case STOP: return new Kind(Role.CLOSE, "stop", fault, target);
            case KILL: return new Kind(Role.OPEN, "restart", "kill", target);
            case RESTART: return new Kind(Role.CLOSE, "restart", "kill", target);
            case PAUSE: return new Kind(Role.OPEN, "resume", "pause", target);
            case RESUME: return new Kind(Role.CLOSE, "resume", "pause", target);
            case HEAL: case QUIESCE: return new Kind(Role.CLOSE_ALL, "", f.wireName(), null);
            case EXPIRE: return new Kind(Role.INSTANT, "", "expire", target);
            case FAULT: return foreign(inv);
            default: return new Kind(Role.NONE, "", f.wireName(), null);
        }
    }

    /** A Jepsen nemesis op lockchaos has no name for: {@code {f: original, value: original value}}. */
    private static Kind foreign(Op v) {
        String name = Objects.requireNonNullElse(v.stringField("f"), "fault");
        Object orig = v.field("value");
        String target = orig == null ? null : String.valueOf(orig);
        if (name.startsWith("start-")) {
            return new Kind(Role.OPEN, "stop", name.substring("start-".length()), target);
        }
        if (name.startsWith("stop-")) {
            // Jepsen's stop ops carry no target worth matching (often nil or the same description).
            return new Kind(Role.CLOSE, "stop", name.substring("stop-".length()), null);
        }
        return new Kind(Role.INSTANT, "", name, target);
    }

    /** The first field that names whom a fault hit, as text; null when none does. */
    static String target(Op op) {
        if (!(op.value() instanceof Map<?, ?>)) {
            return null;
        }
        for (String field : new String[] {"node", "nodes", "target", "targets", "session"}) {
            Object o = op.field(field);
            if (o != null) {
                return String.valueOf(o);
            }
        }
        return null;
    }
}
