package io.lockchaos.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScheduleTest {
    @Test
    void timelineEntriesWithAliasesTargetsAndOptions() {
        Schedule s = Schedule.parse("at 5s isolate holder for 6s; at 1.5s kill leader for 2s\n"
                + "at 3s latency clients latency_ms=200 jitter_ms=50 for 4s; at 8s expire waiter;"
                + " at 9s partition halves one_way=1 for 1s; at 10s isolate node:2 for 500ms", 1, 20_000);
        List<FaultEvent> e = s.events();
        assertEquals(6, e.size());
        assertEquals(new FaultEvent(1500, new Fault(FaultKind.KILL, "leader", Map.of()), 2000), e.get(0));
        assertEquals(new FaultEvent(3000, new Fault(FaultKind.LATENCY, "clients",
                Map.of("latency_ms", 200L, "jitter_ms", 50L)), 4000), e.get(1));
        assertEquals(FaultKind.ISOLATE_CLIENT, e.get(2).fault().kind());
        assertEquals("holder", e.get(2).fault().target());
        assertEquals(new FaultEvent(8000, new Fault(FaultKind.EXPIRE, "waiter", Map.of()), 0), e.get(3));
        assertEquals(new Fault(FaultKind.PARTITION_HALVES, "", Map.of("one_way", 1L)), e.get(4).fault());
        assertEquals(new Fault(FaultKind.ISOLATE_SERVER, "node:2", Map.of()), e.get(5).fault());
        assertTrue(s.needsClientProxies() && s.needsPeerProxies() && s.partitionsServers());
    }

    @Test
    void everyRepeatsAnInstantaneousFaultWithItsTargetAndOptions() {
        Schedule s = Schedule.parse("every 500ms interrupt waiter release=1 from 1s", 0, 3000);
        List<FaultEvent> e = s.events();
        assertEquals(List.of(1000L, 1500L, 2000L, 2500L), e.stream().map(FaultEvent::atMillis).toList());
        assertEquals(new Fault(FaultKind.INTERRUPT, "waiter", Map.of("release", 1L)), e.get(3).fault());
        assertEquals(0, e.get(0).durationMillis());
        IllegalArgumentException lasts = assertThrows(IllegalArgumentException.class,
                () -> Schedule.parse("every 1s kill leader", 0, 3000));
        assertTrue(lasts.getMessage().contains("use 'mix kill every TIME for TIME'"), lasts.getMessage());
        IllegalArgumentException holder = assertThrows(IllegalArgumentException.class,
                () -> Schedule.parse("every 1s interrupt holder", 0, 3000));
        assertTrue(holder.getMessage().contains("interrupt takes waiter, next-waiter or process:N"),
                holder.getMessage());
    }

    @Test
    void theTimelineTextParsesBackToTheSameSchedule() {
        Schedule s = Schedule.parse("mix kill,pause,isolate-client,expire,partition-ring every 3s for 2s from 1s",
                42, 30_000);
        assertEquals(10, s.events().size());
        Schedule again = Schedule.parse(String.join("; ", s.timeline()), 0, 30_000);
        assertEquals(s, again);
    }

    @Test
    void aMixIsExpandedFromTheSeed() {
        String mix = "mix kill,pause,expire,isolate-client every 2s for 1s";
        assertEquals(Schedule.parse(mix, 7, 20_000), Schedule.parse(mix, 7, 20_000));
        assertFalse(Schedule.parse(mix, 7, 20_000).equals(Schedule.parse(mix, 8, 20_000)));
        Schedule s = Schedule.parse(mix, 7, 20_000);
        assertEquals(10, s.events().size());
        for (FaultEvent e : s.events()) {
            assertEquals(e.fault().kind().instantaneous() ? 0 : 1000, e.durationMillis());
            assertTrue(e.fault().kind().targets.accepts(e.fault().target()), e.toString());
        }
    }

    @Test
    void aTrafficMixStaysOnTheLocksPathThatEveryRunHas() {
        for (long seed = 1; seed <= 50; seed++) {
            for (FaultEvent e : Schedule.parse("mix latency,bandwidth,reset every 1s for 1s", seed, 20_000).events()) {
                assertFalse(e.fault().onData(), "a mix never draws the data path, which needs protected_data: " + e);
            }
        }
    }

    @Test
    void onlyWhatNeedsProxiesAsksForThem() {
        Schedule s = Schedule.parse("at 1s kill random for 1s; at 3s expire holder; at 5s latency clients for 1s",
                1, 10_000);
        assertTrue(s.needsClientProxies());
        assertFalse(s.needsPeerProxies());
        assertFalse(Schedule.parse("at 1s pause majority for 1s", 1, 10_000).needsClientProxies());
    }

    @Test
    void badEntriesGetOneLineNamingTheEntry() {
        assertMessage("'at 5s explode holder for 1s': unknown fault 'explode'", "at 5s explode holder for 1s");
        assertMessage("'at 5s kill holder for 1s': kill takes leader, follower, random, minority, majority, all or"
                + " node:N (or data, data:N: the protected data's servers), not 'holder'", "at 5s kill holder for 1s");
        assertMessage("'at 5s kill leader': kill needs 'for TIME'", "at 5s kill leader");
        assertMessage("'at 5s expire holder for 2s': expire happens at an instant; drop 'for'",
                "at 5s expire holder for 2s");
        assertMessage("'at 50s kill leader for 1s': starts at 50000 ms, after the main phase (10000 ms)",
                "at 50s kill leader for 1s");
        assertMessage("'at soon kill leader for 1s': 'soon' is not a time", "at soon kill leader for 1s");
        assertMessage("'mix kill every 1s for 2s': faults of 2000 ms every 1000 ms would overlap",
                "mix kill every 1s for 2s");
        assertMessage("'kill the leader': expected 'at TIME FAULT", "kill the leader");
        assertMessage("'at 1s pause-client follower for 1s': pause-client takes holder, releaser, waiter,"
                + " next-waiter, random or process:N", "at 1s pause-client follower for 1s");
        assertMessage("'at 1s expire releaser': only isolate and pause-client take releaser",
                "at 1s expire releaser");
        assertMessage("'mix isolate,kill every 2s for 1s': unknown fault 'isolate' in a mix",
                "mix isolate,kill every 2s for 1s");
    }

    private static void assertMessage(String prefix, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Schedule.parse(text, 1, 10_000));
        assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
