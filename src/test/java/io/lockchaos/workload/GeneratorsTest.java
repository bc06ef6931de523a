package io.lockchaos.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratorsTest {
    private static final Cycle BASE = Cycle.of(1000, 10);

    @Test
    void limitStopsAfterN() {
        assertEquals(3, Generators.take(10, Generators.limit(3, Generators.repeat(BASE)), 0).size());
        assertEquals(0, Generators.take(10, Generators.limit(0, Generators.repeat(BASE)), 0).size());
    }

    @Test
    void generatorsAreValuesReplayedIdentically() {
        Generator g = Generators.stagger(Duration.ofMillis(50), 7, Generators.tryAcquire(0.3, 8,
                Generators.holdBetween(5, 50, 9, Generators.repeat(BASE))));
        List<Cycle> first = Generators.take(200, g, 0);
        assertEquals(first, Generators.take(200, g, 0), "asking again must not change the stream");
        assertNotEquals(first, Generators.take(200, Generators.stagger(Duration.ofMillis(50), 8,
                Generators.repeat(BASE)), 0));
    }

    @Test
    void timeLimitCountsFromFirstAskAndUsesTheWorkersClock() {
        Generator g = Generators.timeLimit(Duration.ofSeconds(2), Generators.repeat(BASE));
        Generator.Step s = g.next(new Generator.Context(0, 5_000_000_000L));
        assertEquals(BASE, s.cycle());
        Generator.Step s2 = s.rest().next(new Generator.Context(0, 6_900_000_000L));
        assertEquals(BASE.withTimeout(100), s2.cycle(), "the acquire may wait only until the limit");
        assertNull(s2.rest().next(new Generator.Context(0, 7_000_000_000L)));
    }

    @Test
    void noAcquireWaitsPastTheTimeLimit() {
        Generator g = Generators.until(10_000_000_000L, Generators.repeat(Cycle.of(5000, 10)));
        assertEquals(5000, g.next(new Generator.Context(0, 1_000_000_000L)).cycle().timeoutMillis());
        assertEquals(2000, g.next(new Generator.Context(0, 8_000_000_000L)).cycle().timeoutMillis());
        assertEquals(1, g.next(new Generator.Context(0, 9_999_999_999L)).cycle().timeoutMillis());
        Generator staggered = Generators.until(10_000_000_000L, Generators.repeat(Cycle.of(5000, 10).withPause(3000)));
        Cycle late = staggered.next(new Generator.Context(0, 9_000_000_000L)).cycle();
        assertEquals(1000, late.pauseMillis(), "a pause stops at the limit too");
        assertEquals(1, late.timeoutMillis());
        Generator tries = Generators.until(10_000_000_000L, Generators.repeat(Cycle.of(0, 10)));
        assertTrue(tries.next(new Generator.Context(0, 9_000_000_000L)).cycle().isTry(), "a try stays a try");
    }

    @Test
    void phasesRunInTurn() {
        Cycle a = Cycle.of(1, 1);
        Cycle b = Cycle.of(2, 2);
        Generator g = Generators.phases(Generators.limit(2, Generators.repeat(a)),
                Generators.limit(1, Generators.repeat(b)));
        assertEquals(List.of(a, a, b), Generators.take(10, g, 0));
    }

    @Test
    void mixFollowsWeightsAndDropsExhaustedGenerators() {
        Cycle a = Cycle.of(1, 1);
        Cycle b = Cycle.of(2, 2);
        Generator g = Generators.mix(3, new double[] {3, 1}, Generators.repeat(a), Generators.repeat(b));
        List<Cycle> cycles = Generators.take(4000, g, 0);
        long as = cycles.stream().filter(a::equals).count();
        assertTrue(as > 2800 && as < 3200, "about 3 in 4 should be a, got " + as);
        Generator bounded = Generators.mix(3, new double[] {1, 1}, Generators.limit(5, Generators.repeat(a)),
                Generators.limit(7, Generators.repeat(b)));
        List<Cycle> all = Generators.take(100, bounded, 0);
        assertEquals(12, all.size());
        assertEquals(5, all.stream().filter(a::equals).count());
    }

    @Test
    void tryAcquireAndHoldRangeAndStagger() {
        List<Cycle> cs = Generators.take(4000, Generators.stagger(Duration.ofMillis(100), 1,
                Generators.tryAcquire(0.25, 2, Generators.holdBetween(5, 15, 3, Generators.repeat(BASE)))), 0);
        long tries = cs.stream().filter(Cycle::isTry).count();
        assertTrue(tries > 850 && tries < 1150, "about a quarter should be tries, got " + tries);
        assertTrue(cs.stream().allMatch(c -> c.holdMillis() >= 5 && c.holdMillis() <= 15));
        assertTrue(cs.stream().anyMatch(c -> c.holdMillis() == 5) && cs.stream().anyMatch(c -> c.holdMillis() == 15));
        double meanPause = cs.stream().mapToLong(Cycle::pauseMillis).average().orElse(0);
        assertTrue(meanPause > 90 && meanPause < 110, "mean pause should be about 100 ms, got " + meanPause);
        assertTrue(cs.stream().allMatch(c -> c.pauseMillis() < 200));
    }

    @Test
    void rateIsAStaggerWithMeanOneOverRate() {
        double mean = Generators.take(2000, Generators.rate(20, 5, Generators.repeat(BASE)), 0).stream()
                .mapToLong(Cycle::pauseMillis).average().orElse(0);
        assertTrue(mean > 45 && mean < 55, "20/s is a 50 ms mean pause, got " + mean);
    }

    @Test
    void impossibleParametersAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Generators.limit(-1, Generators.empty()));
        assertThrows(IllegalArgumentException.class, () -> Generators.tryAcquire(1.5, 1, Generators.empty()));
        assertThrows(IllegalArgumentException.class, () -> Generators.rate(0, 1, Generators.empty()));
        assertThrows(IllegalArgumentException.class, () -> Generators.holdBetween(10, 5, 1, Generators.empty()));
        assertThrows(IllegalArgumentException.class, () -> Generators.mix(1, new double[] {1},
                Generators.empty(), Generators.empty()));
        assertThrows(IllegalArgumentException.class, () -> new Cycle(0, 0, 0, 0));
    }
}
