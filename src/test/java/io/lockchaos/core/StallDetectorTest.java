package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runner's heartbeat, on a fake clock that each sleep moves: no thread, no waiting. */
class StallDetectorTest {
    private static final long MS = 1_000_000L;

    /** A clock that a sleep moves by the period, plus whatever lateness the test queued for that sleep. */
    private static final class FakeTime {
        long now = 7 * MS;
        final List<Long> lateness = new ArrayList<>();

        void sleep(long millis) {
            now += millis * MS + (lateness.isEmpty() ? 0 : lateness.remove(0));
        }
    }

    @Test
    void aWakeUpFarLaterThanAskedIsAStallFromTheLastWakeUpToThisOne() throws Exception {
        FakeTime t = new FakeTime();
        List<StallDetector.Stall> told = new ArrayList<>();
        StallDetector d = new StallDetector(() -> t.now, t::sleep, 100, 1000, told::add);
        t.lateness.addAll(List.of(0L, 30 * MS, 5000 * MS, 0L));
        assertNull(d.beat());
        assertNull(d.beat()); // 130 ms: a busy machine, not a frozen runner
        StallDetector.Stall s = d.beat();
        assertEquals(new StallDetector.Stall(237 * MS, 5337 * MS), s);
        assertEquals(5100 * MS, s.durationNs());
        assertNull(d.beat());
        assertEquals(List.of(s), told);
        assertEquals(List.of(s), d.stalls());
    }

    @Test
    void aGapOfExactlyTheThresholdIsNoStall() throws Exception {
        FakeTime t = new FakeTime();
        StallDetector d = new StallDetector(() -> t.now, t::sleep, 100, 1000, s -> { });
        t.lateness.add(900 * MS);
        assertNull(d.beat());
        t.lateness.add(900 * MS + 1);
        assertEquals(1000 * MS + 1, d.beat().durationNs());
    }

    @Test
    void anIdleRunIsNoStall() throws Exception {
        // nothing recorded for a minute: the heartbeat woke on time throughout, so nothing is said
        FakeTime t = new FakeTime();
        StallDetector d = new StallDetector(() -> t.now, t::sleep, 100, 1000, s -> {
            throw new AssertionError("no stall");
        });
        for (int i = 0; i < 600; i++) {
            assertNull(d.beat());
        }
        assertTrue(d.stalls().isEmpty());
    }

    @Test
    void aThresholdNotAboveThePeriodIsRefused() {
        assertEquals("a stall threshold of 100 ms is not above the heartbeat's period of 100 ms",
                assertThrows(IllegalArgumentException.class, () -> new StallDetector(System::nanoTime,
                        Thread::sleep, 100, 100, s -> { })).getMessage());
    }

    @Test
    void theRealHeartbeatStopsWhenClosed() throws Exception {
        StallDetector d = StallDetector.start(System::nanoTime, 60_000, s -> { });
        Thread.sleep(250);
        d.close();
        assertTrue(d.stalls().isEmpty());
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(th -> th.getName()
                .equals("lockchaos-heartbeat") && th.isAlive()), "the heartbeat thread is gone");
    }
}
