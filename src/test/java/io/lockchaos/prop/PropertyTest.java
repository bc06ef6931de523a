package io.lockchaos.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PropertyTest {
    /** Halves toward zero, then steps down by one. */
    private static final Shrinker<Integer> TOWARD_ZERO = v -> v == 0 ? Stream.empty() : Stream.of(v / 2, v - 1);

    @Test
    void aPassingPropertyRunsEveryCase() {
        Property.Outcome<Integer> o = Property.forAll("non-negative", Gen.ints(0, 1000), TOWARD_ZERO)
                .cases(500).seed(1).run(v -> v >= 0);
        assertTrue(o.passed());
        assertEquals(500, o.casesRun());
    }

    @Test
    void aFailureIsShrunkToTheSmallestCounterexample() {
        Property.Outcome<Integer> o = Property.forAll("small", Gen.ints(0, 1_000_000), TOWARD_ZERO)
                .cases(1000).seed(7).run(v -> v < 1234);
        assertFalse(o.passed());
        assertEquals(1234, o.failure().shrunk());
        assertTrue(o.failure().original() >= 1234);
    }

    @Test
    void theSameSeedReproducesTheSameFailingCase() {
        var p = Property.forAll("small", Gen.ints(0, 1_000_000), Shrinker.<Integer>none()).cases(1000).seed(99);
        var a = p.run(v -> v < 900_000);
        var b = p.run(v -> v < 900_000);
        assertEquals(a.failure().caseNumber(), b.failure().caseNumber());
        assertEquals(a.failure().original(), b.failure().original());
    }

    @Test
    void theFailureMessageNamesTheSeedAndHowToReplay() {
        var p = Property.forAll("small", Gen.ints(0, 100), TOWARD_ZERO).cases(100).seed(5);
        AssertionError e = assertThrows(AssertionError.class, () -> p.check(v -> v < 10));
        assertTrue(e.getMessage().contains("of seed 5 (replay with -Dlockchaos.seed=5)"), e.getMessage());
        assertTrue(e.getMessage().endsWith("steps to:\n10"), e.getMessage());
    }

    @Test
    void anExceptionIsAFailureAndShrinksAmongExceptions() {
        var o = Property.forAll("no-throw", Gen.ints(0, 10_000), TOWARD_ZERO).cases(200).seed(3).run(v -> {
            if (v > 50) {
                throw new IllegalStateException("too big: " + v);
            }
            return true;
        });
        assertEquals(51, o.failure().shrunk());
        assertTrue(o.failure().error() instanceof IllegalStateException);
    }
}
