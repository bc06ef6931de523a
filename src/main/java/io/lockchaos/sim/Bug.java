package io.lockchaos.sim;

import io.lockchaos.api.Grant;

/** A defect the simulated lock service or resource can be told to commit once. */
public enum Bug {
    NONE,
    /** Grant a lock to a waiter while it is already at capacity (double holder, or N+1 permits). */
    OVER_GRANT,
    /** The fenced resource accepts a write carrying an older token than one it accepted before. */
    STALE_WRITE,
    /** The final read of the protected set misses one acknowledged add. */
    LOST_ADD,
    /** Grant the second waiter in the queue before the first (FIFO recipes). */
    OVERTAKE
}
