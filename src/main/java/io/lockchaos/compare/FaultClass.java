package io.lockchaos.compare;

/**
 * A fault the reliability row counts violations under. Each is one schedule that every backend takes as it is, so the
 * three columns meet the same event at the same moment of the same workload.
 */
public enum FaultClass {
    /** A GC-like pause of the holder at its danger point, twice its session or lease. */
    HOLDER_PAUSE("holder paused past its session or lease", "at 1s pause-client holder for 4s", 500),
    /** The holder's machine goes silent: its connections are blackholed, its peers carry on. */
    HOLDER_CUT_OFF("holder cut off from every server", "at 1s isolate holder for 6s", 500),
    /**
     * kill -9 of the (first) server, restarted a second later, while a client holds the lock across both (its hold is
     * longer than the lease: a leased lock's holder stops believing it holds when its lease runs out).
     */
    SERVER_KILL("server killed (kill -9) and restarted", "at 1s kill node:1 for 1s", 4000);

    private final String description;
    private final String schedule;
    private final long holdMillis;

    FaultClass(String description, String schedule, long holdMillis) {
        this.description = description;
        this.schedule = schedule;
        this.holdMillis = holdMillis;
    }

    /** How long each hold of the run lasts. */
    public long holdMillis() {
        return holdMillis;
    }

    public String description() {
        return description;
    }

    /** The nemesis schedule, as {@code --nemesis} takes it. */
    public String schedule() {
        return schedule;
    }

    /** The name as the table and the run folders show it. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
