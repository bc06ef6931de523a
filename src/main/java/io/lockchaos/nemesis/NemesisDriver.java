package io.lockchaos.nemesis;

import io.lockchaos.client.Recorder;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.Schedule;
import io.lockchaos.history.Fn;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a schedule on the nemesis thread and records it: the phase markers, then each fault's start and end as a
 * nemesis op pair at its time in the main phase. A fault that cannot be applied completes as info with the reason. When
 * the workers are done the runner interrupts the thread and calls {@link #healAndQuiesce}, which ends every fault and
 * lets the system settle. All nemesis ops come from one thread at a time, so they never interleave.
 */
public final class NemesisDriver implements Runnable {
    private final Schedule schedule;
    private final Nemesis nemesis;
    private final NemesisContext context;
    private final Recorder recorder;
    private final long warmupMillis;
    private final Map<Integer, Nemesis.Started> active = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile int started;
    private volatile int failed;

    public NemesisDriver(Schedule schedule, Nemesis nemesis, NemesisContext context, Recorder recorder,
                         long warmupMillis) {
        this.schedule = schedule;
        this.nemesis = nemesis;
        this.context = context;
        this.recorder = recorder;
        this.warmupMillis = warmupMillis;
    }

    private record Action(long atMillis, boolean start, int event) {
    }

    @Override
    public void run() {
        try {
            if (warmupMillis > 0) {
                marker(Fn.PHASE, Map.of("phase", "warmup"));
                Thread.sleep(warmupMillis);
            }
            // the wall clock here lets server log lines be placed on the history's clock
            marker(Fn.PHASE, Map.of("phase", "main", "wall_ms", System.currentTimeMillis()));
            long main = System.nanoTime();
            List<Action> actions = new ArrayList<>();
            List<FaultEvent> events = schedule.events();
            for (int i = 0; i < events.size(); i++) {
                FaultEvent e = events.get(i);
                actions.add(new Action(e.atMillis(), true, i));
                if (!e.fault().kind().instantaneous()) {
                    actions.add(new Action(e.atMillis() + e.durationMillis(), false, i));
                }
            }
            // at equal times, ends go first, so back-to-back faults do not overlap
            actions.sort(Comparator.comparingLong(Action::atMillis).thenComparing(Action::start));
            for (Action a : actions) {
                if (Thread.currentThread().isInterrupted()) {
                    return; // the workers are done
                }
                long wait = a.atMillis() - (System.nanoTime() - main) / 1_000_000;
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                if (a.start()) {
                    start(a.event(), events.get(a.event()));
                } else {
                    stop(a.event(), events.get(a.event()));
                }
            }
        } catch (InterruptedException e) {
            // the workers are done: the runner heals what is still active
        }
    }

    private void start(int i, FaultEvent e) {
        Map<String, Object> what = new LinkedHashMap<>();
        what.put("fault", e.fault().kind().wireName());
        what.put("target", e.fault().target());
        what.putAll(e.fault().options());
        if (!e.fault().kind().instantaneous()) {
            what.put("duration_ms", e.durationMillis());
        }
        Op op = recorder.invoke(Op.NEMESIS, e.fault().kind().startFn(), null, what);
        try {
            Nemesis.Started s = nemesis.start(e.fault(), e.durationMillis(), context);
            recorder.complete(op, OpType.OK, s.value(), null);
            started++;
            if (s.stopper() != null) {
                active.put(i, s);
            }
        } catch (InterruptedException ex) {
            failed++;
            recorder.complete(op, OpType.INFO, what, "interrupted: the run ended");
            Thread.currentThread().interrupt();
        } catch (Exception ex) {
            failed++;
            recorder.complete(op, OpType.INFO, what, oneLine(ex));
        }
    }

    private void stop(int i, FaultEvent e) {
        Nemesis.Started s = active.remove(i);
        if (s == null) {
            return; // it never started
        }
        Op op = recorder.invoke(Op.NEMESIS, e.fault().kind().stopFn(), null, s.value());
        try {
            recorder.complete(op, OpType.OK, s.stopper().stop(), null);
        } catch (InterruptedException ex) {
            recorder.complete(op, OpType.INFO, s.value(), "interrupted: the run ended (the final heal ends it)");
            Thread.currentThread().interrupt();
        } catch (Exception ex) {
            recorder.complete(op, OpType.INFO, s.value(), oneLine(ex));
        }
    }

    /**
     * The final heal: ends every fault still active, then records a quiesce of {@code quiesceMillis} while the system
     * settles (sessions of cut-off clients expire, servers rejoin). Call after the driver's thread has ended.
     */
    public void healAndQuiesce(long quiesceMillis) throws InterruptedException {
        Op heal = recorder.invoke(Op.NEMESIS, Fn.HEAL, null, Map.of("active", active.size()));
        active.clear();
        try {
            nemesis.heal(context);
            recorder.complete(heal, OpType.OK, null, null);
        } catch (Exception ex) {
            recorder.complete(heal, OpType.INFO, null, oneLine(ex));
        }
        if (quiesceMillis > 0) {
            Op q = recorder.invoke(Op.NEMESIS, Fn.QUIESCE, null, Map.of("ms", quiesceMillis));
            Thread.sleep(quiesceMillis);
            recorder.complete(q, OpType.OK, Map.of("ms", quiesceMillis), null);
        }
    }

    /** The faults active now, as "fault target" (for a progress line; any thread). */
    public List<String> activeFaults() {
        List<String> out = new ArrayList<>();
        for (Nemesis.Started s : active.values()) {
            out.add(s.value().get("fault") + " " + s.value().getOrDefault("target", ""));
        }
        return out;
    }

    /** Faults that started. */
    public int started() {
        return started;
    }

    /** Faults that could not be applied. */
    public int failed() {
        return failed;
    }

    private void marker(Fn f, Object value) {
        Op p = recorder.invoke(Op.NEMESIS, f, null, value);
        recorder.complete(p, OpType.OK, value, null);
    }

    private static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ");
    }
}
