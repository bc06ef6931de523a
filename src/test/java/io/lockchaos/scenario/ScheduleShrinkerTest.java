package io.lockchaos.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.FaultKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ScheduleShrinkerTest {
    private static TestSpec spec(String nemesis, int clients, long time) throws Exception {
        return TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("nemesis", nemesis,
                "clients", Integer.toString(clients), "time_s", Long.toString(time), "keys", "2")));
    }

    /** Fails while an isolation of the holder of at least 2 s is in the schedule and there are 2+ clients. */
    private static boolean bug(TestSpec s) {
        return s.clients().count() >= 2 && s.schedule().events().stream().anyMatch(e ->
                e.fault().kind() == FaultKind.ISOLATE_CLIENT && e.durationMillis() >= 2000);
    }

    @Test
    void shrinksToTheOneFaultThatMattersAtItsShortestAndTheFewestClients() throws Exception {
        TestSpec failing = spec("at 1s kill leader for 2s; at 2s isolate holder for 8s; at 5s expire waiter;"
                + " at 7s pause follower for 1s", 8, 20);
        List<ScheduleShrinker.Step> log = new ArrayList<>();
        ScheduleShrinker.Outcome out = new ScheduleShrinker(1, 100, log::add).shrink(failing,
                ScheduleShrinkerTest::bug);
        TestSpec s = out.spec();
        assertEquals(1, s.schedule().events().size(), s.schedule().timeline().toString());
        FaultEvent e = s.schedule().events().get(0);
        assertEquals(FaultKind.ISOLATE_CLIENT, e.fault().kind());
        assertEquals(2000, e.durationMillis(), "8 s halves to 4 s and 2 s; 1 s no longer fails");
        assertEquals(2, s.clients().count());
        assertEquals(1, s.workload().keys());
        assertEquals(4, s.workload().timeSeconds(), "the fault must still end inside the main phase");
        assertTrue(bug(s));
        assertEquals(log, out.steps());
        assertEquals(out.runs(), log.size(), "one try each");
    }

    @Test
    void eachCandidateIsTriedUpToAttemptsTimesAndTheBudgetIsKept() throws Exception {
        TestSpec failing = spec("at 1s isolate holder for 4s; at 6s expire waiter", 4, 10);
        SplittableRandom coin = new SplittableRandom(3);
        // a flaky bug: where it exists, a run shows it one time in three
        ScheduleShrinker.Trial flaky = s -> bug(s) && coin.nextInt(3) == 0;
        ScheduleShrinker.Outcome out = new ScheduleShrinker(5, 12, step -> { }).shrink(failing, flaky);
        assertTrue(out.runs() <= 12, "budget: " + out.runs());
        for (ScheduleShrinker.Step step : out.steps()) {
            assertTrue(step.tries() >= 1 && step.tries() <= 5);
            assertTrue(step.reproduced() || step.tries() == 5 || out.runs() == 12, step.toString());
        }
        assertTrue(bug(out.spec()), "never accepts a candidate where the bug cannot happen");
    }

    @Test
    void hundredsOfRepeatedFaultsGoByKindAndByHalvesNotOneByOne() throws Exception {
        TestSpec failing = spec("every 60ms interrupt waiter from 1s; at 2s isolate holder for 4s", 4, 12);
        assertTrue(failing.schedule().events().size() > 150, "the every line is that many faults");
        ScheduleShrinker.Outcome out = new ScheduleShrinker(1, 40, step -> { }).shrink(failing,
                ScheduleShrinkerTest::bug);
        assertEquals(1, out.spec().schedule().events().size(), out.spec().schedule().timeline().toString());
        assertTrue(out.runs() < 15, "runs: " + out.runs() + " " + out.steps());
        assertTrue(out.steps().stream().limit(2).anyMatch(st -> st.change().equals("drop every 'interrupt' fault")
                && st.reproduced()), out.steps().toString());
    }

    @Test
    void noCandidateIsTriedTwice() throws Exception {
        TestSpec s = spec("at 1s isolate holder for 4s", 4, 12);
        java.util.List<String> changes = ScheduleShrinker.candidates(s).stream().map(c -> c.change()).toList();
        assertEquals(changes.size(), new java.util.HashSet<>(changes).size(), changes.toString());
    }

    @Test
    void candidatesAreAllRunnableAndSmaller() throws Exception {
        TestSpec s = spec("at 1s isolate holder for 4s; at 6s expire waiter; at 8s kill leader for 1s", 4, 12);
        for (ScheduleShrinker.Candidate c : ScheduleShrinker.candidates(s)) {
            TestSpec t = c.spec();
            boolean smaller = t.schedule().events().size() < s.schedule().events().size()
                    || t.schedule().endMillis() < s.schedule().endMillis()
                    || t.schedule().events().stream().mapToLong(FaultEvent::durationMillis).sum()
                    < s.schedule().events().stream().mapToLong(FaultEvent::durationMillis).sum()
                    || t.clients().count() < s.clients().count() || t.workload().keys() < s.workload().keys()
                    || t.workload().timeSeconds() < s.workload().timeSeconds();
            assertTrue(smaller, c.change());
            assertTrue(t.schedule().endMillis() <= t.workload().timeSeconds() * 1000,
                    c.change() + ": no fault is cut off");
        }
    }
}
