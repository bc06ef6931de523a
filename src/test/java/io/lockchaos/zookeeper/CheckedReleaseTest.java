package io.lockchaos.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lockchaos.api.LockClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** lockchaos' check before a Curator release never keeps the release from running, and comes before the danger point. */
class CheckedReleaseTest {
    @Test
    void theCheckComesFirstThenTheDangerPointThenTheRelease() throws Exception {
        List<String> order = new ArrayList<>();
        LockClient.Release r = CheckedRelease.run(() -> {
            order.add("check");
            return true;
        }, () -> order.add("danger"), () -> order.add("release"));
        assertEquals(LockClient.Release.HELD, r);
        assertEquals(List.of("check", "danger", "release"), order);
        assertEquals(LockClient.Release.GONE, CheckedRelease.run(() -> false, () -> { }, () -> { }));
    }

    @Test
    void aCheckThatFailsLeavesTheOutcomeUnknownAndTheReleaseRuns() throws Exception {
        List<String> order = new ArrayList<>();
        LockClient.Release r = CheckedRelease.run(() -> {
            throw new IllegalStateException("ConnectionLoss");
        }, () -> order.add("danger"), () -> order.add("release"));
        assertEquals(LockClient.Release.UNKNOWN, r);
        assertEquals(List.of("danger", "release"), order);
    }

    @Test
    void aReleaseThatThrowsThrowsAndAnInterruptedCheckStopsIt() {
        assertThrows(IllegalStateException.class, () -> CheckedRelease.run(() -> true, () -> { }, () -> {
            throw new IllegalStateException("ConnectionLoss");
        }));
        List<String> order = new ArrayList<>();
        assertThrows(InterruptedException.class, () -> CheckedRelease.run(() -> {
            throw new InterruptedException();
        }, () -> order.add("danger"), () -> order.add("release")));
        assertEquals(List.of(), order);
    }
}
