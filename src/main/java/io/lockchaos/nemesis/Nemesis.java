package io.lockchaos.nemesis;

import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.util.Map;
import java.util.Set;

/**
 * Injects some kinds of faults. Implementations are used from the nemesis thread only.
 */
public interface Nemesis {
    /** The fault kinds this nemesis handles. */
    Set<FaultKind> kinds();

    /**
     * Starts a fault that is to last {@code durationMillis} (0 for an instantaneous one); the caller ends it.
     *
     * @return what was done to whom (recorded as the completion's value) and how to end it
     * @throws Exception when the fault could not be applied; it is recorded as info (it may have been applied in part)
     */
    Started start(Fault fault, long durationMillis, NemesisContext context) throws Exception;

    /** Ends every fault this nemesis started and has not ended: the final heal. Must not throw for faults gone. */
    void heal(NemesisContext context) throws Exception;

    /** Ends one started fault. */
    @FunctionalInterface
    interface Stopper {
        /** Ends the fault and returns what was done, for the history. */
        Map<String, Object> stop() throws Exception;
    }

    /**
     * A fault that has started.
     *
     * @param value what was done to whom, for the history
     * @param stopper ends it; null for an instantaneous fault
     */
    record Started(Map<String, Object> value, Stopper stopper) {
    }
}
