package io.lockchaos.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Combinators over {@link Generator}s. Every result is an immutable value; random choices come from a seed carried in
 * the value and advanced per step ({@link Rng}), so a stream is the same every time it is replayed from its seed.
 */
public final class Generators {
    private Generators() {
    }

    /** The same cycle forever. */
    public static Generator repeat(Cycle cycle) {
        return new Generator() {
            @Override
            public Step next(Context context) {
                return new Step(cycle, this);
            }
        };
    }

    /** Nothing: exhausted from the start. */
    public static Generator empty() {
        return context -> null;
    }

    /** At most {@code n} cycles of {@code g}. */
    public static Generator limit(long n, Generator g) {
        if (n < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + n);
        }
        return context -> {
            if (n == 0) {
                return null;
            }
            Generator.Step s = g.next(context);
            return s == null ? null : new Generator.Step(s.cycle(), limit(n - 1, s.rest()));
        };
    }

    /**
     * {@code g} for {@code d}, counted from the first time it is asked (so a later phase gets its whole time). A cycle
     * handed out just before the limit runs to its end.
     */
    public static Generator timeLimit(Duration d, Generator g) {
        long nanos = d.toNanos();
        return context -> until(context.elapsedNanos() + nanos, g).next(context);
    }

    /**
     * {@code g} until the run's elapsed time reaches {@code elapsedNanos}. Neither a pause nor an acquire waits past
     * that time: the pause and then the timeout are cut to what is left (a timeout to at least 1 ms), so the run ends
     * on time instead of waiting out long timeouts.
     */
    public static Generator until(long elapsedNanos, Generator g) {
        return context -> {
            if (context.elapsedNanos() >= elapsedNanos) {
                return null;
            }
            Generator.Step s = g.next(context);
            if (s == null) {
                return null;
            }
            Cycle c = s.cycle();
            long remaining = (elapsedNanos - context.elapsedNanos()) / 1_000_000L;
            if (c.pauseMillis() > remaining) {
                c = c.withPause(Math.max(0, remaining)); // a stagger does not outlast the phase either
            }
            long left = Math.max(1, remaining - c.pauseMillis());
            if (!c.isTry() && c.timeoutMillis() > left) {
                c = c.withTimeout(left);
            }
            return new Generator.Step(c, until(elapsedNanos, s.rest()));
        };
    }

    /** Each generator in turn: the next starts when the one before is exhausted (Jepsen's phases). */
    public static Generator phases(Generator... gs) {
        return phases(List.of(gs));
    }

    private static Generator phases(List<Generator> gs) {
        return context -> {
            for (int i = 0; i < gs.size(); i++) {
                Generator.Step s = gs.get(i).next(context);
                if (s != null) {
                    List<Generator> rest = new ArrayList<>(gs.subList(i, gs.size()));
                    rest.set(0, s.rest());
                    return new Generator.Step(s.cycle(), phases(List.copyOf(rest)));
                }
            }
            return null;
        };
    }

    /**
     * Each step from one of {@code gs}, chosen at random with the given weights; an exhausted generator drops out,
     * and the mix is exhausted when all are.
     */
    public static Generator mix(long seed, double[] weights, Generator... gs) {
        if (weights.length != gs.length || gs.length == 0) {
            throw new IllegalArgumentException("mix needs one weight per generator, got " + weights.length + " and "
                    + gs.length);
        }
        for (double w : weights) {
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("mix weights must be positive and finite, got " + w);
            }
        }
        return mix(new Rng(seed), weights.clone(), List.of(gs));
    }

    private static Generator mix(Rng rng, double[] weights, List<Generator> gs) {
        return context -> {
            List<Generator> live = new ArrayList<>(gs);
            double[] w = weights.clone();
            Rng r = rng;
            while (!live.isEmpty()) {
                double total = 0;
                for (int i = 0; i < live.size(); i++) {
                    total += w[i];
                }
                double x = r.nextDouble() * total;
                r = r.advance();
                int pick = 0;
                while (pick < live.size() - 1 && x >= w[pick]) {
                    x -= w[pick];
                    pick++;
                }
                Generator.Step s = live.get(pick).next(context);
                if (s != null) {
                    live.set(pick, s.rest());
                    return new Generator.Step(s.cycle(), mix(r, w, List.copyOf(live)));
                }
                live.remove(pick);
                w = remove(w, pick);
            }
            return null;
        };
    }

    private static double[] remove(double[] a, int i) {
        double[] b = new double[a.length - 1];
        System.arraycopy(a, 0, b, 0, i);
        System.arraycopy(a, i + 1, b, i, a.length - i - 1);
        return b;
    }

    /** Every cycle of {@code g} changed by {@code f}. */
    public static Generator map(UnaryOperator<Cycle> f, Generator g) {
        return context -> {
            Generator.Step s = g.next(context);
            return s == null ? null : new Generator.Step(f.apply(s.cycle()), map(f, s.rest()));
        };
    }

    /** Each cycle of {@code g} with a random value drawn for it by {@code f(cycle, uniform in [0, 1))}. */
    private static Generator randomly(Rng rng, Generator g, RandomEdit f) {
        return context -> {
            Generator.Step s = g.next(context);
            return s == null ? null
                    : new Generator.Step(f.apply(s.cycle(), rng.nextDouble()), randomly(rng.advance(), s.rest(), f));
        };
    }

    private interface RandomEdit {
        Cycle apply(Cycle c, double uniform);
    }

    /**
     * Adds a random pause, uniform in [0, 2 x mean), before each cycle, so workers do not move in lock step
     * (Jepsen's stagger).
     */
    public static Generator stagger(Duration mean, long seed, Generator g) {
        long twice = 2 * mean.toMillis();
        return randomly(new Rng(seed), g, (c, u) -> c.withPause(c.pauseMillis() + (long) (u * twice)));
    }

    /** About {@code perSecond} cycles a second from each worker: a stagger with mean 1 / rate. */
    public static Generator rate(double perSecond, long seed, Generator g) {
        if (!(perSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, got " + perSecond);
        }
        return stagger(Duration.ofNanos((long) (1e9 / perSecond)), seed, g);
    }

    /** Turns a {@code fraction} of the acquires into single tries (timeout 0). */
    public static Generator tryAcquire(double fraction, long seed, Generator g) {
        checkFraction(fraction);
        return randomly(new Rng(seed), g, (c, u) -> u < fraction ? c.withTimeout(0) : c);
    }

    /** Each hold drawn uniformly from [minMillis, maxMillis]. */
    public static Generator holdBetween(long minMillis, long maxMillis, long seed, Generator g) {
        if (minMillis < 0 || maxMillis < minMillis) {
            throw new IllegalArgumentException("hold range must be 0 <= min <= max, got " + minMillis + ".."
                    + maxMillis);
        }
        long span = maxMillis - minMillis + 1;
        return randomly(new Rng(seed), g, (c, u) -> c.withHold(minMillis + (long) (u * span)));
    }

    private static void checkFraction(double f) {
        if (!(f >= 0 && f <= 1)) {
            throw new IllegalArgumentException("fraction must be in [0, 1], got " + f);
        }
    }

    /** The first {@code n} cycles {@code g} hands one worker whose clock never moves: for tests and printing. */
    public static List<Cycle> take(int n, Generator g, int worker) {
        List<Cycle> out = new ArrayList<>();
        Generator cur = g;
        for (int i = 0; i < n; i++) {
            Generator.Step s = cur.next(new Generator.Context(worker, 0));
            if (s == null) {
                break;
            }
            out.add(s.cycle());
            cur = s.rest();
        }
        return out;
    }
}
