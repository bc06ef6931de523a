package io.lockchaos.prop;

import java.util.Iterator;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs a predicate on many generated cases. Case {@code i} of seed {@code s} is generated from {@code new
 * SplittableRandom(s).split()} applied {@code i} times, so {@code (seed, case)} reproduces it; a failure is shrunk
 * greedily (first candidate that still fails, repeated) within a step budget. A predicate fails by returning false or
 * throwing; a candidate on which it throws something other than an AssertionError during shrinking is only kept if the
 * original failure was also a throw.
 *
 * @param <T> the generated value
 */
public final class Property<T> {
    /** System property that fixes the seed, to replay a printed failure. */
    public static final String SEED_PROPERTY = "lockchaos.seed";
    /** System property that sets how many cases run (the nightly profile raises it). */
    public static final String CASES_PROPERTY = "lockchaos.prop.cases";

    private final String name;
    private final Gen<T> gen;
    private final Shrinker<T> shrinker;
    private Function<T, String> describe;
    private int cases = 100;
    private long seed = System.nanoTime();
    private int maxShrinkSteps = 2_000;

    private Property(String name, Gen<T> gen, Shrinker<T> shrinker, Function<T, String> describe) {
        this.name = name;
        this.gen = gen;
        this.shrinker = shrinker;
        this.describe = describe;
    }

    public static <T> Property<T> forAll(String name, Gen<T> gen, Shrinker<T> shrinker) {
        return new Property<>(name, gen, shrinker, String::valueOf);
    }

    /** How to print a case in a failure message. */
    public Property<T> describedBy(Function<T, String> f) {
        Property<T> p = copy();
        p.describe = f;
        return p;
    }

    private Property<T> copy() {
        Property<T> p = new Property<>(name, gen, shrinker, describe);
        p.cases = cases;
        p.seed = seed;
        p.maxShrinkSteps = maxShrinkSteps;
        return p;
    }

    public Property<T> cases(int n) {
        Property<T> p = copy();
        p.cases = n;
        return p;
    }

    /** Cases from the {@value #CASES_PROPERTY} system property, or {@code dflt}, scaled by {@code factor}. */
    public Property<T> casesFromSystem(int dflt, double factor) {
        int base = Integer.getInteger(CASES_PROPERTY, dflt);
        return cases(Math.max(1, (int) (base * factor)));
    }

    /** The seed from the {@value #SEED_PROPERTY} system property if set, else {@code dflt}. */
    public Property<T> seed(long dflt) {
        Property<T> p = copy();
        String s = System.getProperty(SEED_PROPERTY);
        p.seed = s == null || s.isBlank() ? dflt : Long.parseLong(s.trim());
        return p;
    }

    public Property<T> maxShrinkSteps(int n) {
        Property<T> p = copy();
        p.maxShrinkSteps = n;
        return p;
    }

    /**
     * The outcome of a run.
     *
     * @param seed the seed the run used
     * @param casesRun how many cases ran
     * @param failure the failure, or null when every case passed
     */
    public record Outcome<T>(String name, long seed, int casesRun, Failure<T> failure) {
        public boolean passed() {
            return failure == null;
        }
    }

    /**
     * A failing case.
     *
     * @param caseNumber which case failed (0-based)
     * @param original the generated value
     * @param shrunk the smallest failing value found
     * @param shrinkSteps how many successful shrink steps led there
     * @param error what the predicate threw on the shrunk value, or null if it returned false
     */
    public record Failure<T>(int caseNumber, T original, T shrunk, int shrinkSteps, Throwable error) {
    }

    /** Runs the property without throwing; see {@link #check} for the throwing form. */
    public Outcome<T> run(Predicate<T> property) {
        SplittableRandom root = new SplittableRandom(seed);
        for (int i = 0; i < cases; i++) {
            SplittableRandom r = root.split();
            T value = gen.generate(r);
            Throwable err = evaluate(property, value);
            if (err != null) {
                return new Outcome<>(name, seed, i + 1, shrink(property, i, value, err));
            }
        }
        return new Outcome<>(name, seed, cases, null);
    }

    /**
     * Runs the property and throws an AssertionError whose message names the seed, the case, and the shrunk value.
     *
     * @return the outcome when every case passed
     */
    public Outcome<T> check(Predicate<T> property) {
        Outcome<T> o = run(property);
        if (!o.passed()) {
            throw new AssertionError(message(o), o.failure().error());
        }
        return o;
    }

    /** The failure message: what failed, how to replay it, and the shrunk case. */
    public String message(Outcome<T> o) {
        Failure<T> f = o.failure();
        return "property '" + name + "' failed on case " + f.caseNumber() + " of seed " + o.seed()
                + " (replay with -D" + SEED_PROPERTY + "=" + o.seed() + "); shrunk in " + f.shrinkSteps()
                + " steps to:\n" + describe.apply(f.shrunk())
                + (f.error() == null ? "" : "\nerror: " + f.error());
    }

    /** Returns null when the property holds, else the failure (an AssertionError for a false result). */
    private static <T> Throwable evaluate(Predicate<T> property, T value) {
        try {
            return property.test(value) ? null : new AssertionError("property returned false");
        } catch (Throwable t) {
            return t;
        }
    }

    private Failure<T> shrink(Predicate<T> property, int caseNumber, T original, Throwable originalError) {
        boolean assertion = originalError instanceof AssertionError;
        T current = original;
        Throwable currentError = originalError;
        int steps = 0;
        int tried = 0;
        boolean progress = true;
        while (progress && tried < maxShrinkSteps * 50 && steps < maxShrinkSteps) {
            progress = false;
            Iterator<T> it = shrinker.candidates(current).iterator();
            while (it.hasNext() && tried < maxShrinkSteps * 50) {
                T c = it.next();
                tried++;
                if (Objects.equals(c, current)) {
                    continue;
                }
                Throwable e = evaluate(property, c);
                if (e != null && (e instanceof AssertionError) == assertion) {
                    current = c;
                    currentError = e;
                    steps++;
                    progress = true;
                    break;
                }
            }
        }
        return new Failure<>(caseNumber, original, current,
                steps, currentError instanceof AssertionError a && "property returned false".equals(a.getMessage())
                ? null : currentError);
    }
}
