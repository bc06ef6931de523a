package io.lockchaos.sim;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Simulates clients using a correct lock service, optionally with one {@link Bug}, and records the history. Time is
 * simulated (nanoseconds), so a run of a million ops takes well under a second of real time.
 */
public final class LockSimulator {
    private static final long SESSION_TIMEOUT = 20_000_000L;
    private static final long SESSION_BASE = 0x100000000L;

    private final SimConfig c;
    private final SplittableRandom rnd;
    private final Consumer<Op> sink;
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final List<LockState> locks = new ArrayList<>();
    private final Slot[] slots;
    private long now;
    private long seqCounter;
    private long zxid = 1000;
    private long recorded;
    private int nextProcess;
    private boolean bugDone;
    private long element;
    private long minToken = Long.MAX_VALUE;

    private record Event(long time, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return time != o.time ? Long.compare(time, o.time) : Long.compare(seq, o.seq);
        }
    }

    private enum Fate { PATIENT, TIMEOUT, CRASH }

    private static final class Waiter {
        final Slot slot;
        final int process;
        final long position;
        final long seq;
        final boolean write;
        final Fate fate;
        boolean granted;
        boolean gone;
        /** Its ok is recorded and it has not yet invoked release: it certainly holds. */
        boolean certain;
        /** An injected bug needs it to keep holding until then. */
        long pinnedUntil;

        Waiter(Slot slot, int process, long position, long seq, boolean write, Fate fate) {
            this.slot = slot;
            this.process = process;
            this.position = position;
            this.seq = seq;
            this.write = write;
            this.fate = fate;
        }
    }

    private static final class LockState {
        final String key;
        final String setKey;
        final String registerKey;
        final TreeMap<Long, Waiter> queue = new TreeMap<>();
        final List<Waiter> holders = new ArrayList<>();
        final LinkedHashSet<Long> set = new LinkedHashSet<>();
        final List<Long> acked = new ArrayList<>();
        long maxAccepted = -1;
        long maxAcceptedAt = -1;
        long seq;

        LockState(int i) {
            key = "/lock/" + i;
            setKey = "/set/" + i;
            registerKey = "/register/" + i;
        }
    }

    private static final class Slot {
        int process;
        boolean done;
    }

    private LockSimulator(SimConfig c, long seed, Consumer<Op> sink) {
        this.c = c;
        this.rnd = new SplittableRandom(seed);
        this.sink = sink;
        for (int i = 0; i < c.keys(); i++) {
            locks.add(new LockState(i));
        }
        slots = new Slot[c.processes()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot();
            slots[i].process = nextProcess++;
        }
    }

    /**
     * The outcome of a simulated run.
     *
     * @param history the validated history
     * @param bugCommitted whether the configured bug was committed (a short or unlucky run may find no chance to)
     */
    public record Result(History history, boolean bugCommitted) {
    }

    /** Runs the simulation and returns the validated history. */
    public static Result run(SimConfig c, long seed) {
        List<Op> ops = new ArrayList<>();
        boolean bug = run(c, seed, ops::add);
        return new Result(History.ofValid(ops), bug);
    }

    /**
     * Runs the simulation, handing each op to {@code sink} in history order.
     *
     * @return whether the configured bug was committed
     */
    public static boolean run(SimConfig c, long seed, Consumer<Op> sink) {
        LockSimulator sim = new LockSimulator(c, seed, sink);
        sim.simulate();
        return sim.bugDone;
    }

    private void simulate() {
        for (Slot s : slots) {
            at(rnd.nextLong(1, 100_000), () -> startAcquire(s));
        }
        drain();
        if (c.finale()) {
            finale();
        }
    }

    private void drain() {
        while (!events.isEmpty()) {
            Event e = events.poll();
            now = e.time();
            e.action().run();
        }
    }

    private void at(long time, Runnable r) {
        events.add(new Event(Math.max(time, now), seqCounter++, r));
    }

    private long latency() {
        return rnd.nextLong(1_000, 2_000_000);
    }

    private void record(OpType type, int process, Fn f, String key, Object value, String error) {
        sink.accept(new Op(recorded++, now, type, process, f, key, value, error));
    }

    private static long session(int process) {
        return SESSION_BASE + process;
    }

    private void retire(Slot s) {
        s.process = nextProcess++;
    }

    private void startAcquire(Slot s) {
        if (recorded >= c.targetOps()) {
            s.done = true;
            return;
        }
        LockState l = locks.get(rnd.nextInt(locks.size()));
        boolean write = !c.recipe().readWrite() || rnd.nextInt(3) == 0;
        Map<String, Object> inv = new LinkedHashMap<>();
        if (c.recipe().readWrite()) {
            inv.put("mode", write ? "write" : "read");
        }
        double r = rnd.nextDouble();
        Fate fate = r < c.infoRate() ? Fate.CRASH : r < c.infoRate() + c.timeoutRate() ? Fate.TIMEOUT : Fate.PATIENT;
        if (fate == Fate.TIMEOUT) {
            inv.put("timeout_ms", 2L);
        }
        int process = s.process;
        record(OpType.INVOKE, process, Fn.ACQUIRE, l.key, inv.isEmpty() ? null : inv, null);
        Waiter w = new Waiter(s, process, zxid++, l.seq++, write, fate);
        l.queue.put(w.position, w);
        if (fate == Fate.CRASH) {
            at(now + rnd.nextLong(100_000, 3_000_000), () -> {
                record(OpType.INFO, process, Fn.ACQUIRE, l.key, null, "client crashed");
                w.gone = true;
                retire(s);
                at(now + SESSION_TIMEOUT, () -> expire(l, w));
                at(now + rnd.nextLong(1_000, 500_000), () -> startAcquire(s));
            });
        } else if (fate == Fate.TIMEOUT) {
            at(now + 2_000_000, () -> {
                if (!w.granted && !w.gone) {
                    l.queue.remove(w.position);
                    w.gone = true;
                    record(OpType.FAIL, process, Fn.ACQUIRE, l.key, null, "timeout");
                    pump(l);
                    at(now + rnd.nextLong(1_000, 500_000), () -> startAcquire(s));
                }
            });
        }
        pump(l);
    }

    /** The session of a crashed client expires: its node goes, whether it was waiting or holding. */
    private void expire(LockState l, Waiter w) {
        l.queue.remove(w.position);
        l.holders.remove(w);
        pump(l);
    }

    /** Grants whatever the recipe allows, in queue order, committing the configured bug once. */
    private void pump(LockState l) {
        boolean bugTime = !bugDone && recorded > c.targetOps() / 4;
        if (bugTime && c.bug() == Bug.OVERTAKE && c.recipe().fifo() && l.holders.isEmpty() && l.queue.size() >= 2) {
            Iterator<Waiter> it = l.queue.values().iterator();
            Waiter head = it.next();
            Waiter second = it.next();
            boolean readersOnly = c.recipe().readWrite() && !head.write && !second.write; // readers may pass readers
            if (head.fate == Fate.PATIENT && second.fate != Fate.CRASH && !readersOnly) {
                bugDone = true;
                grant(l, second);
            }
        }
        if (bugTime && c.bug() == Bug.OVER_GRANT && !l.holders.isEmpty() && !l.queue.isEmpty()) {
            Waiter head = l.queue.firstEntry().getValue();
            boolean full = c.recipe().readWrite() ? true : l.holders.size() >= c.recipe().capacity();
            boolean allCertain = l.holders.stream().allMatch(h -> h.certain);
            if (full && head.fate != Fate.CRASH && allCertain && (head.write || holdsWriter(l))) {
                bugDone = true;
                for (Waiter h : l.holders) {
                    h.pinnedUntil = now + 10_000; // they must still hold when the extra grant is acknowledged
                }
                grant(l, head, 1_000);
            }
        }
        while (!l.queue.isEmpty()) {
            Waiter head = l.queue.firstEntry().getValue();
            boolean ok;
            if (c.recipe().readWrite()) {
                ok = head.write ? l.holders.isEmpty() : !holdsWriter(l);
            } else {
                ok = l.holders.size() < c.recipe().capacity();
            }
            if (!ok) {
                break;
            }
            grant(l, head);
        }
    }

    private static boolean holdsWriter(LockState l) {
        for (Waiter h : l.holders) {
            if (h.write) {
                return true;
            }
        }
        return false;
    }

    private void grant(LockState l, Waiter w) {
        grant(l, w, latency());
    }

    private void grant(LockState l, Waiter w, long okAfter) {
        l.queue.remove(w.position);
        l.holders.add(w);
        w.granted = true;
        if (w.fate == Fate.CRASH) {
            return; // its client is gone or about to be: it holds until its session expires, and nobody hears of it
        }
        at(now + okAfter, () -> {
            record(OpType.OK, w.process, Fn.ACQUIRE, l.key, grantValue(l, w), null);
            w.certain = true;
            minToken = Math.min(minToken, w.position);
            at(now + latency(), () -> holdStep(l, w, 0, 0));
        });
    }

    /**
     * One step of a holder's critical section: maybe re-enter, write, add, then release. {@code depth} is how many
     * nested re-acquires are outstanding and {@code step} how far along the section is.
     */
    private void holdStep(LockState l, Waiter w, int depth, int step) {
        int p = w.process;
        if (depth < 2 && c.reentryRate() > 0 && rnd.nextDouble() < c.reentryRate()) {
            Map<String, Object> inv = c.recipe().readWrite() ? Map.of("mode", w.write ? "write" : "read") : null;
            record(OpType.INVOKE, p, Fn.ACQUIRE, l.key, inv, null);
            at(now + rnd.nextLong(1_000, 50_000), () -> {
                record(OpType.OK, p, Fn.ACQUIRE, l.key, grantValue(l, w), null);
                at(now + latency(), () -> holdStep(l, w, depth + 1, step));
            });
            return;
        }
        if (step == 0 && c.fencedWrites()) {
            long token = w.position;
            boolean stale = !bugDone && c.bug() == Bug.STALE_WRITE && recorded > c.targetOps() / 4
                    && minToken < l.maxAccepted && minToken < token && l.maxAcceptedAt < now;
            long sent = stale ? minToken : token;
            record(OpType.INVOKE, p, Fn.WRITE, l.registerKey, Map.of("token", sent), null);
            at(now + latency(), () -> {
                boolean accepted = stale || sent >= l.maxAccepted;
                if (stale) {
                    bugDone = true;
                }
                if (accepted && sent > l.maxAccepted) {
                    l.maxAccepted = sent;
                    l.maxAcceptedAt = now;
                }
                record(OpType.OK, p, Fn.WRITE, l.registerKey, Map.of("token", sent, "accepted", accepted), null);
                at(now + latency(), () -> holdStep(l, w, depth, 1));
            });
            return;
        }
        if (step <= 1 && c.setAdds()) {
            long e = element++;
            record(OpType.INVOKE, p, Fn.ADD, l.setKey, e, null);
            at(now + latency(), () -> {
                l.set.add(e);
                l.acked.add(e);
                record(OpType.OK, p, Fn.ADD, l.setKey, e, null);
                at(now + latency(), () -> holdStep(l, w, depth, 2));
            });
            return;
        }
        release(l, w, depth);
    }

    private Map<String, Object> grantValue(LockState l, Waiter w) {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("node", l.key + "/lock-" + String.format("%010d", w.seq));
        g.put("token", w.position);
        g.put("session", session(w.process));
        g.put("owner", session(w.process));
        g.put("seq", w.seq);
        return g;
    }

    private void release(LockState l, Waiter w, int depth) {
        if (w.pinnedUntil > now) {
            at(w.pinnedUntil, () -> release(l, w, depth));
            return;
        }
        int p = w.process;
        record(OpType.INVOKE, p, Fn.RELEASE, l.key, null, null);
        if (depth == 0) {
            w.certain = false;
        }
        if (depth > 0) {
            at(now + rnd.nextLong(1_000, 50_000), () -> {
                record(OpType.OK, p, Fn.RELEASE, l.key, null, null);
                at(now + latency(), () -> release(l, w, depth - 1));
            });
            return;
        }
        if (rnd.nextDouble() < c.infoRate() / 4) {
            boolean happened = rnd.nextBoolean();
            long free = now + latency();
            at(free, () -> {
                record(OpType.INFO, p, Fn.RELEASE, l.key, null, "connection lost");
                retire(w.slot);
                at(happened ? now : now + SESSION_TIMEOUT, () -> expire(l, w));
                at(now + latency(), () -> startAcquire(w.slot));
            });
            return;
        }
        long free = now + latency();
        at(free, () -> {
            l.holders.remove(w);
            pump(l);
        });
        at(free + rnd.nextLong(1, 500_000), () -> {
            record(OpType.OK, p, Fn.RELEASE, l.key, null, null);
            at(now + rnd.nextLong(1_000, 1_000_000), () -> startAcquire(w.slot));
        });
    }

    /** Heal marker, one probe acquire per key by a fresh process, final reads, final inspection. */
    private void finale() {
        now += 2 * SESSION_TIMEOUT;
        record(OpType.INVOKE, Op.NEMESIS, Fn.HEAL, null, null, null);
        now += 1_000;
        record(OpType.OK, Op.NEMESIS, Fn.HEAL, null, null, null);
        for (LockState l : locks) {
            int p = nextProcess++;
            now += 10_000;
            record(OpType.INVOKE, p, Fn.ACQUIRE, l.key, null, null);
            now += 100_000;
            Waiter w = new Waiter(null, p, zxid++, l.seq++, true, Fate.PATIENT);
            record(OpType.OK, p, Fn.ACQUIRE, l.key, grantValue(l, w), null);
            now += 10_000;
            record(OpType.INVOKE, p, Fn.RELEASE, l.key, null, null);
            now += 10_000;
            record(OpType.OK, p, Fn.RELEASE, l.key, null, null);
            if (c.setAdds() && !l.acked.isEmpty()) {
                List<Long> read = new ArrayList<>(l.set);
                if (c.bug() == Bug.LOST_ADD && !bugDone) {
                    read.remove(l.acked.get(l.acked.size() / 2));
                    bugDone = true;
                }
                now += 10_000;
                record(OpType.INVOKE, p, Fn.READ, l.setKey, null, null);
                now += 10_000;
                record(OpType.OK, p, Fn.READ, l.setKey, read, null);
            }
        }
        now += 10_000;
        record(OpType.INVOKE, Op.NEMESIS, Fn.INSPECT, null, null, null);
        now += 10_000;
        record(OpType.OK, Op.NEMESIS, Fn.INSPECT, null, Map.of("nodes", List.of(), "sessions", List.of()), null);
    }
}
