package io.lockchaos.history;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What an op does. Client functions come first; the rest are nemesis and runner markers. {@link #FAULT} stands for
 * a nemesis function from a foreign (Jepsen) history that lockchaos has no name for; its original name is kept in
 * the op's value.
 */
public enum Fn {
    ACQUIRE, RELEASE, READ, WRITE, ADD, CAS, STATE,
    /** Nemesis: start a fault (partition, kill, pause, expire...); the value says which and to whom. */
    START,
    /** Nemesis: end the fault that a START began. */
    STOP,
    /** Nemesis: end every fault. The last HEAL marks where the leak checker starts looking. */
    HEAL,
    /** Runner: no more faults from here on; the system is given time to settle. */
    QUIESCE,
    /** Runner: final inspection of the lock nodes still present and the sessions still open. */
    INSPECT,
    /** Runner: a workload phase begins (warmup, main); the value names it. */
    PHASE,
    /**
     * Runner: the runner itself was frozen (stopped, paused with its machine, or in a long GC pause), seen afterwards
     * by its heartbeat. Unpaired like {@link #STATE}: type ok, process nemesis, value {@code start_ns} and {@code end_ns}
     * (the frozen span on the history's clock) and {@code duration_ns}. No checker judges it; reports show it.
     */
    STALL,
    KILL, RESTART, PAUSE, RESUME, PARTITION, EXPIRE, INTERRUPT,
    FAULT;

    private static final Map<String, Fn> BY_WIRE = new HashMap<>();

    static {
        for (Fn f : values()) {
            BY_WIRE.put(f.wireName(), f);
        }
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether its ops are observations standing alone, neither invocation nor completion: STATE and STALL. */
    public boolean unpaired() {
        return this == STATE || this == STALL;
    }

    /** Returns the function for a wire name, or null when there is none. */
    public static Fn parse(String s) {
        return BY_WIRE.get(s);
    }
}
