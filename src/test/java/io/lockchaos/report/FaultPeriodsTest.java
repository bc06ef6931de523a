package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.history.Fn;
import io.lockchaos.history.OpType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultPeriodsTest {
    @Test
    void lockchaosNetworkFaultsPairTheirPartitionWithItsStopByFaultName() {
        Map<String, Object> v = Map.of("fault", "isolate-client", "target", "holder", "session", 7L);
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .op(OpType.INVOKE, 10, io.lockchaos.history.Op.NEMESIS, Fn.PARTITION, null,
                        Map.of("fault", "isolate-client", "target", "holder"))
                .op(OpType.OK, 11, io.lockchaos.history.Op.NEMESIS, Fn.PARTITION, null, v)
                .op(OpType.INVOKE, 50, io.lockchaos.history.Op.NEMESIS, Fn.STOP, null, v)
                .op(OpType.OK, 51, io.lockchaos.history.Op.NEMESIS, Fn.STOP, null, v)
                .op(OpType.INVOKE, 90, io.lockchaos.history.Op.NEMESIS, Fn.HEAL, null, null)
                .op(OpType.OK, 91, io.lockchaos.history.Op.NEMESIS, Fn.HEAL, null, null)
                .build());
        assertEquals(List.of(new FaultPeriods.Period("isolate-client holder", 10, 51, true, 0, 3)), p);
    }

    @Test
    void startPairsWithStopOfTheSameFaultFromInvocationToCompletion() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .nemesis(10, Fn.START, Map.of("fault", "partition", "nodes", List.of("n1")))
                .nemesis(50, Fn.STOP, Map.of("fault", "partition"))
                .build());
        assertEquals(List.of(new FaultPeriods.Period("partition [n1]", 10, 51, true, 0, 3)), p);
    }

    @Test
    void killPairsWithTheRestartOfTheSameNodeOnly() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .nemesis(10, Fn.KILL, Map.of("node", "n1"))
                .nemesis(20, Fn.KILL, Map.of("node", "n2"))
                .nemesis(30, Fn.RESTART, Map.of("node", "n2"))
                .nemesis(40, Fn.RESTART, Map.of("node", "n1"))
                .build());
        assertEquals(2, p.size());
        assertEquals(new FaultPeriods.Period("kill n1", 10, 41, true, 0, 7), p.get(0));
        assertEquals(new FaultPeriods.Period("kill n2", 20, 31, true, 2, 5), p.get(1));
    }

    @Test
    void pauseAndResumeWithoutTargetsPair() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .nemesis(5, Fn.PAUSE, null).nemesis(9, Fn.RESUME, null).build());
        assertEquals(List.of(new FaultPeriods.Period("pause", 5, 10, true, 0, 3)), p);
    }

    @Test
    void healEndsEveryOpenFaultAndResumeDoesNotEndAKill() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .nemesis(10, Fn.PARTITION, null)
                .nemesis(20, Fn.KILL, Map.of("node", "n3"))
                .nemesis(30, Fn.RESUME, Map.of("node", "n3"))
                .nemesis(40, Fn.HEAL, null)
                .build());
        assertEquals(List.of(new FaultPeriods.Period("partition", 10, 41, true, 0, 7),
                new FaultPeriods.Period("kill n3", 20, 41, true, 2, 7)), p);
    }

    @Test
    void aFaultNeverEndedLastsToTheEndOfTheHistory() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .nemesis(10, Fn.START, Map.of("fault", "clock"))
                .op(OpType.INVOKE, 20, 0, Fn.ACQUIRE, "/l", null)
                .op(OpType.OK, 90, 0, Fn.ACQUIRE, "/l", null)
                .build());
        assertEquals(List.of(new FaultPeriods.Period("clock", 10, 90, false, 0, -1)), p);
    }

    @Test
    void aFailedOpenerOpensNothingAndAStopOfAnotherFaultClosesNothing() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .nemesisFailed(10, Fn.KILL, Map.of("node", "n1"))
                .nemesis(20, Fn.START, Map.of("fault", "partition"))
                .nemesis(30, Fn.STOP, Map.of("fault", "clock"))
                .nemesis(40, Fn.STOP, null)
                .build());
        assertEquals(List.of(new FaultPeriods.Period("partition", 20, 41, true, 2, 7)), p);
    }

    @Test
    void expireIsAPeriodOfItsOwnAndForeignJepsenOpsPairByName() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .nemesis(10, Fn.EXPIRE, Map.of("session", 42))
                .nemesis(20, Fn.FAULT, Map.of("f", "start-partition", "value", "isolated n1"))
                .nemesis(30, Fn.FAULT, Map.of("f", "stop-partition"))
                .nemesis(40, Fn.FAULT, Map.of("f", "bump-clock"))
                .build());
        assertEquals(List.of(new FaultPeriods.Period("expire 42", 10, 11, true, 0, 1),
                new FaultPeriods.Period("partition isolated n1", 20, 31, true, 2, 5),
                new FaultPeriods.Period("bump-clock", 40, 41, true, 6, 7)), p);
    }

    @Test
    void theTargetMayComeFromTheInvocationOrTheCompletion() {
        List<FaultPeriods.Period> p = FaultPeriods.of(new Ops()
                .op(OpType.INVOKE, 1, io.lockchaos.history.Op.NEMESIS, Fn.START, null, Map.of("fault", "partition",
                        "nodes", "n1"))
                .op(OpType.INFO, 2, io.lockchaos.history.Op.NEMESIS, Fn.START, null, Map.of("fault", "partition"))
                .op(OpType.INVOKE, 3, io.lockchaos.history.Op.NEMESIS, Fn.KILL, null, null)
                .op(OpType.OK, 4, io.lockchaos.history.Op.NEMESIS, Fn.KILL, null, Map.of("node", "n2"))
                .build());
        assertEquals(List.of("partition n1", "kill n2"), p.stream().map(FaultPeriods.Period::label).toList());
    }

    @Test
    void noNemesisNoPeriods() {
        assertTrue(FaultPeriods.of(new Ops().op(OpType.INVOKE, 1, 0, Fn.ACQUIRE, "/l", null).build()).isEmpty());
        assertFalse(FaultPeriods.of(new Ops().nemesis(1, Fn.PAUSE, null).build()).get(0).ended());
    }
}
