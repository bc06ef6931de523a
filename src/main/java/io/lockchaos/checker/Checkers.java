package io.lockchaos.checker;

import io.lockchaos.history.History;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Factories and combinators for checkers. */
public final class Checkers {
    private Checkers() {
    }

    /**
     * The dedicated lock checkers for a recipe: mutual exclusion, reentrancy, fencing, lost updates, leaks, fairness,
     * and for a leader election its liveness.
     */
    public static Checker forRecipe(Recipe recipe) {
        return compose("lock", parts(recipe));
    }

    private static List<Checker> parts(Recipe recipe) {
        List<Checker> parts = new ArrayList<>(List.of(new MutualExclusionChecker(recipe), new ReentrancyChecker(recipe),
                new FencingChecker(), new LostUpdateChecker(recipe), new LeakChecker(recipe),
                new FairnessChecker(recipe)));
        if (recipe.leadership()) {
            parts.add(new LeaderElectionChecker(recipe));
        }
        return parts;
    }

    /**
     * The checkers of a run's history: {@link #forRecipe}, except that a run in which no lock was ever taken or
     * released (every client failed to start, say) is at best unknown, however clean its leak inspection: the run
     * meant to exercise the lock and did not. A hand-made history of fenced writes alone is still checked as such.
     */
    public static Checker forRun(Recipe recipe) {
        return forRun(recipe, -1);
    }

    /**
     * {@link #forRun(Recipe)}: the recipe's checkers, the token order (a run records each grant's czxid and sequence
     * number), and the acquire-timeout check when {@code acquireSlackMillis} is 0 or more.
     */
    public static Checker forRun(Recipe recipe, long acquireSlackMillis) {
        List<Checker> parts = new ArrayList<>(parts(recipe));
        parts.add(new TokenOrderChecker(recipe));
        if (acquireSlackMillis >= 0) {
            parts.add(new AcquireTimeoutChecker(acquireSlackMillis));
        }
        return compose("lock", parts, MutualExclusionChecker.NAME);
    }

    /**
     * Runs every checker (each made {@link #safe}) and returns a result whose verdict is the worst of those that
     * found something to check (a part that checked nothing neither helps nor hurts), whose children are their results
     * and whose stats are theirs by name. When no part checked anything, the composition checked nothing either.
     */
    public static Checker compose(String name, List<Checker> checkers) {
        return compose(name, checkers, null);
    }

    /**
     * Like {@link #compose(String, List)}, but the part named {@code essential} must have checked something for the
     * composition to be valid: a lock history in which no lock was ever taken (every client failed to start, say) is
     * not a correct lock, however clean its leak inspection. Without it the verdict is at best unknown.
     */
    public static Checker compose(String name, List<Checker> checkers, String essential) {
        List<Checker> parts = List.copyOf(checkers);
        return new Checker() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CheckResult check(History h) {
                List<CheckResult> children = new ArrayList<>();
                Verdict v = Verdict.VALID;
                boolean checked = false;
                List<String> missing = new ArrayList<>();
                Map<String, Object> stats = new LinkedHashMap<>();
                for (Checker c : parts) {
                    CheckResult r = safe(c).check(h);
                    children.add(r);
                    if (r.checked()) {
                        checked = true;
                        v = v.and(r.verdict());
                        stats.put(r.checker(), r.verdict().wireName());
                    } else {
                        stats.put(r.checker(), "nothing to check");
                        missing.add(r.error());
                    }
                }
                if (!checked) {
                    return new CheckResult(name, Verdict.UNKNOWN, List.of(), stats,
                            missing.isEmpty() ? "no checkers" : missing.get(0), children, false);
                }
                for (CheckResult r : children) {
                    if (r.checker().equals(essential) && !r.checked()) {
                        v = v.and(Verdict.UNKNOWN);
                        stats.put("unknown_because", essential + " had nothing to check: " + r.error());
                    }
                }
                return new CheckResult(name, v, List.of(), stats, null, children, true);
            }
        };
    }

    /** Wraps a checker so that anything it throws becomes an unknown result naming the error, never a crash. */
    public static Checker safe(Checker c) {
        return new Checker() {
            @Override
            public String name() {
                return c.name();
            }

            @Override
            public CheckResult check(History h) {
                try {
                    return c.check(h);
                } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                    return CheckResult.unknown(c.name(), "checker failed: " + e, Map.of());
                }
            }
        };
    }

    /** A checker that checks nothing, and says so (unknown on its own, no part of a composition); the no-op extension point. */
    public static Checker noop() {
        return new Checker() {
            @Override
            public String name() {
                return "noop";
            }

            @Override
            public CheckResult check(History h) {
                return CheckResult.nothingToCheck("noop", "the no-op checker checks nothing", Map.of());
            }
        };
    }
}
