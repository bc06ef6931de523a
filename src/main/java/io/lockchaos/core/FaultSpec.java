package io.lockchaos.core;

/**
 * The faults of a test.
 *
 * @param nemesis the fault schedule as text (see {@link io.lockchaos.fault.Schedule}); empty for none
 * @param quiesceMillis how long the system settles after the final heal; -1 for the session timeout plus 1 s when
 *     the run has faults, else 0
 * @param proxy the Toxiproxy that serves network faults
 * @param partitioner what cuts servers apart (see {@link ClusterSpec} for where each works)
 */
public record FaultSpec(String nemesis, long quiesceMillis, ToxiproxyChoice proxy, PartitionerChoice partitioner) {
    public FaultSpec {
        if (quiesceMillis < -1 || quiesceMillis > 600_000) {
            throw new IllegalArgumentException("quiesce_ms: expected -1 (auto) to 600000, got " + quiesceMillis);
        }
    }

    public boolean none() {
        return nemesis.isBlank();
    }
}
