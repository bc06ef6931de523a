package io.lockchaos.nemesis;

import java.util.List;

/**
 * A cluster whose servers take faults that only their service knows how to make (ZooKeeper's: truncating a
 * server's transaction log, reconfiguring the voting members): its service's package brings the nemeses, and the run
 * composes them with the shared ones, so that the nemesis package never names a service.
 */
public interface ServerFaults {
    /** The nemeses of this cluster's own fault kinds, new for each run. */
    List<Nemesis> nemeses();
}
