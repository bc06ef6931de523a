package io.lockchaos.sim;

import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Simulates processes doing reads, writes and (optionally) compare-and-sets on atomic registers, Jepsen style: every
 * op takes effect at one instant inside its window; a crashed op ends info and took effect or not. With {@code
 * staleRead} one read returns the value before the latest write, which no linearization explains.
 */
public final class RegisterSimulator {
    /**
     * Parameters.
     *
     * @param processes concurrent processes
     * @param keys registers (each key is independent)
     * @param targetOps ops to record, about
     * @param crashes how many ops end indeterminate
     * @param cas whether to issue compare-and-sets
     * @param staleRead whether one read returns a stale value
     */
    public record Config(int processes, int keys, int targetOps, int crashes, boolean cas, boolean staleRead) {
        public Config {
            if (processes < 1 || keys < 1 || targetOps < 0 || crashes < 0) {
                throw new IllegalArgumentException("processes and keys must be >= 1, ops and crashes >= 0");
            }
        }
    }

    private record Event(long time, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return time != o.time ? Long.compare(time, o.time) : Long.compare(seq, o.seq);
        }
    }

    private final Config c;
    private final SplittableRandom rnd;
    private final List<Op> out = new ArrayList<>();
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final Long[] value;
    private final Long[] previous;
    /** When the write that set each register's current value completes. */
    private final long[] currentSetDone;
    /** When the write that set the current value was invoked, and when the one before it completed. */
    private final long[] currentSetInvoked;
    private final long[] previousSetDone;
    private long unique = 100;
    private long now;
    private long seq;
    private int nextProcess;
    private int crashesLeft;
    private boolean staleDone;

    private RegisterSimulator(Config c, long seed) {
        this.c = c;
        this.rnd = new SplittableRandom(seed);
        this.value = new Long[c.keys()];
        this.previous = new Long[c.keys()];
        this.currentSetDone = new long[c.keys()];
        this.currentSetInvoked = new long[c.keys()];
        this.previousSetDone = new long[c.keys()];
        this.crashesLeft = c.crashes();
    }

    /** Runs the simulation and returns the history (see {@link #runWithBug} to learn whether a stale read happened). */
    public static History run(Config c, long seed) {
        return runWithBug(c, seed).history();
    }

    /**
     * The history and whether the stale read was committed.
     *
     * @param history the history
     * @param bugCommitted whether a stale read was returned
     */
    public record Result(History history, boolean bugCommitted) {
    }

    public static Result runWithBug(Config c, long seed) {
        RegisterSimulator s = new RegisterSimulator(c, seed);
        for (int i = 0; i < c.processes(); i++) {
            int p = s.nextProcess++;
            s.at(s.rnd.nextLong(1, 1000), () -> s.invoke(p));
        }
        while (!s.events.isEmpty()) {
            Event e = s.events.poll();
            s.now = e.time();
            e.action().run();
        }
        return new Result(History.ofValid(s.out), s.staleDone);
    }

    private void at(long t, Runnable r) {
        events.add(new Event(Math.max(t, now), seq++, r));
    }

    private void record(OpType type, int p, Fn f, String key, Object v) {
        out.add(new Op(out.size(), now, type, p, f, key, v, type == OpType.INFO ? "timeout" : null));
    }

    private void set(int k, Long v, long invokedAt, long doneAt) {
        previous[k] = value[k];
        previousSetDone[k] = currentSetDone[k];
        value[k] = v;
        currentSetInvoked[k] = invokedAt;
        currentSetDone[k] = doneAt;
    }

    private void invoke(int p) {
        if (out.size() >= c.targetOps()) {
            return;
        }
        int k = rnd.nextInt(c.keys());
        String key = c.keys() == 1 ? "r" : "r" + k;
        int kind = rnd.nextInt(c.cas() ? 3 : 2);
        Fn f = kind == 0 ? Fn.READ : kind == 1 ? Fn.WRITE : Fn.CAS;
        // values are unique when a stale read is wanted, so that nothing else can explain reading the old one
        long w = c.staleRead() ? unique++ : rnd.nextLong(5);
        Object in = f == Fn.WRITE ? (Object) w : f == Fn.CAS ? List.of(rnd.nextLong(5), w) : null;
        record(OpType.INVOKE, p, f, key, in);
        boolean crash = crashesLeft > 0 && rnd.nextInt(Math.max(1, c.targetOps() / (2 * Math.max(1, c.crashes()))))
                == 0;
        if (crash) {
            crashesLeft--;
        }
        boolean takesEffect = !crash || rnd.nextBoolean();
        long effect = now + rnd.nextLong(1, 1000);
        long done = effect + rnd.nextLong(1, 1000);
        long invokedAt = now;
        Object[] result = new Object[1];
        boolean[] ok = {true};
        if (takesEffect) {
            at(effect, () -> {
                switch (f) {
                    case READ -> {
                        // stale only when no order explains it: the old value's write ended before the new one
                        // began, and the new one ended before this read began
                        boolean stale = c.staleRead() && !staleDone && !crash && previous[k] != null
                                && previousSetDone[k] < currentSetInvoked[k] && currentSetDone[k] < invokedAt
                                && out.size() > c.targetOps() / 3;
                        if (stale) {
                            staleDone = true;
                        }
                        result[0] = stale ? previous[k] : value[k];
                    }
                    case WRITE -> {
                        set(k, w, invokedAt, crash ? Long.MAX_VALUE : done);
                    }
                    default -> {
                        @SuppressWarnings("unchecked")
                        List<Long> l = (List<Long>) in;
                        if (l.get(0).equals(value[k])) {
                            set(k, l.get(1), invokedAt, crash ? Long.MAX_VALUE : done);
                        } else {
                            ok[0] = false;
                        }
                    }
                }
            });
        }
        at(done, () -> {
            if (crash) {
                record(OpType.INFO, p, f, key, in);
                int np = nextProcess++;
                at(now + rnd.nextLong(1, 1000), () -> invoke(np));
                return;
            }
            record(ok[0] ? OpType.OK : OpType.FAIL, p, f, key, f == Fn.READ ? result[0] : in);
            at(now + rnd.nextLong(1, 1000), () -> invoke(p));
        });
    }
}
