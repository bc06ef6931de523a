package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

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
        LiveMonitor m = new LiveMonitor(1, seen::add);
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
    void readersShareAndAWriterAmongReadersIsNotCountedTwice() {
        LiveMonitor m = new LiveMonitor(1, seen::add);
        grant(m, 0, "read");
        grant(m, 1, "read");
        grant(m, 2, "write");
        assertNull(m.first(), "readers are not holders here: " + seen);
    }

    @Test
    void aProcessRetiredWhileHoldingIsForgotten() {
        LiveMonitor m = new LiveMonitor(1, seen::add);
        grant(m, 0, null);
        op(m, OpType.INVOKE, 0, Fn.ACQUIRE, null); // a re-entry that ends indeterminate retires the process
        op(m, OpType.INFO, 0, Fn.ACQUIRE, null);
        grant(m, 1, null);
        assertNull(m.first());
    }
}
