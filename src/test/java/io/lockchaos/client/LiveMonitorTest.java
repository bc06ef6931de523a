package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Fn;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveMonitorTest {
    private final List<LiveMonitor.Detection> seen = new ArrayList<>();
    private long t;

    private void op(LiveMonitor m, OpType type, int process, Fn f, Object value) {
        m.accept(new Op(t, t++, type, process, f, "/l", value, null));
    }

    private void grant(LiveMonitor m, int process, String mode) {
        op(m, OpType.INVOKE, process, Fn.ACQUIRE, mode == null ? null : Map.of("mode", mode));
        op(m, OpType.OK, process, Fn.ACQUIRE, Map.of("node", "/l/n" + process)); // a grant does not repeat the mode
    }

    @Test
    void aSecondCertainHolderIsSeenOnceAtItsGrant() {
        LiveMonitor m = new LiveMonitor(Recipe.REENTRANT_MUTEX, seen::add);
        grant(m, 0, null);
        op(m, OpType.INVOKE, 0, Fn.RELEASE, null);
        grant(m, 1, null);
        assertNull(m.first(), "the first holder had invoked its release");
        grant(m, 2, null);
        assertNotNull(m.first());
        assertEquals(2, m.first().newcomer());
        grant(m, 3, null);
        assertEquals(1, seen.size(), "told once");
    }

    @Test
    void readersShareButAWriterAmongReadersIsSeen() {
        LiveMonitor m = new LiveMonitor(Recipe.READ_WRITE, seen::add);
        grant(m, 0, "read");
        grant(m, 1, "read");
        assertNull(m.first(), "readers share: " + seen);
        grant(m, 2, "write");
        assertNotNull(m.first(), "a writer among readers is what the rw checker reports");
        assertEquals(3, m.first().holders());
        assertEquals(2, m.first().newcomer());
    }

    @Test
    void aFailedReleaseLeavesTheHolderHolding() {
        LiveMonitor m = new LiveMonitor(Recipe.MUTEX, seen::add);
        grant(m, 0, null);
        op(m, OpType.INVOKE, 0, Fn.RELEASE, null);
        op(m, OpType.FAIL, 0, Fn.RELEASE, null);
        grant(m, 1, null);
        assertNotNull(m.first(), "the release did not happen: process 0 still held");
    }

    @Test
    void keylessHistoriesAreOneLockAndSemaphoresCountLeases() {
        LiveMonitor m = new LiveMonitor(Recipe.semaphore(2), seen::add);
        for (int p = 0; p < 2; p++) {
            m.accept(new Op(t, t++, OpType.INVOKE, p, Fn.ACQUIRE, null, null, null));
            m.accept(new Op(t, t++, OpType.OK, p, Fn.ACQUIRE, null, null, null));
        }
        assertNull(m.first());
        m.accept(new Op(t, t++, OpType.INVOKE, 2, Fn.ACQUIRE, null, null, null));
        m.accept(new Op(t, t++, OpType.OK, 2, Fn.ACQUIRE, null, null, null));
        assertNotNull(m.first());
        assertEquals("", m.first().key());
    }

    @Test
    void aProcessRetiredWhileHoldingIsForgotten() {
        LiveMonitor m = new LiveMonitor(Recipe.REENTRANT_MUTEX, seen::add);
        grant(m, 0, null);
        op(m, OpType.INVOKE, 0, Fn.ACQUIRE, null); // a re-entry that ends indeterminate retires the process
        op(m, OpType.INFO, 0, Fn.ACQUIRE, null);
        grant(m, 1, null);
        assertNull(m.first());
    }
}
