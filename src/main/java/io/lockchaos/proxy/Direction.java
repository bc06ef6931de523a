package io.lockchaos.proxy;

import java.util.Locale;

/** Which way a toxic's bytes flow; Toxiproxy calls this a toxic's {@code stream}. */
enum Direction {
    /** Client to upstream server. */
    UPSTREAM,
    /** Upstream server to client; Toxiproxy's default. */
    DOWNSTREAM;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name; null means Toxiproxy's default, downstream. */
    static Direction fromWire(String s) {
        if (s == null) {
            return DOWNSTREAM;
        }
        for (Direction d : values()) {
            if (d.wireName().equals(s)) {
                return d;
            }
        }
        throw ApiException.badRequest("stream must be upstream or downstream, got: " + s);
    }
}
