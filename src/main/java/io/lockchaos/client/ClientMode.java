package io.lockchaos.client;

import java.util.Locale;

/** How the application reacts to Curator's connection states while it holds a lock. */
public enum ClientMode {
    /** Naive: keeps working whatever it is told. */
    IGNORE,
    /** Treats SUSPENDED as "maybe not held" (what Curator's documentation asks for): stops at SUSPENDED or LOST. */
    STOP_ON_SUSPENDED,
    /** Stops only when told LOST. */
    STOP_ON_LOST;

    /** Whether a holder may go on after seeing {@code state} since its grant. */
    public boolean mayContinueAfter(String state) {
        if (state == null) {
            return true;
        }
        switch (this) {
            case STOP_ON_SUSPENDED: return !state.equals("SUSPENDED") && !state.equals("LOST");
            case STOP_ON_LOST: return !state.equals("LOST");
            default: return true;
        }
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses {@code ignore}, {@code stop-on-suspended} or {@code stop-on-lost}; null for anything else. */
    public static ClientMode parse(String s) {
        for (ClientMode m : values()) {
            if (m.wireName().equals(s)) {
                return m;
            }
        }
        return null;
    }
}
