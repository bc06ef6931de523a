package io.lockchaos.proxy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The toxics this server implements, with the attribute names Toxiproxy uses. Every attribute is a whole number
 * that defaults to 0; responses always carry all of them because toxiproxy-java reads each one unconditionally.
 */
enum ToxicType {
    /** Delays each chunk by {@code latency} ms plus or minus up to {@code jitter} ms. */
    LATENCY("latency", "jitter"),
    /** Limits throughput to {@code rate} KB/s (1 KB = 1000 bytes, as Toxiproxy counts). */
    BANDWIDTH("rate"),
    /** Delays the close that follows the end of the source by {@code delay} ms. */
    SLOW_CLOSE("delay"),
    /** Drops all data; closes the connection after {@code timeout} ms unless it is 0. */
    TIMEOUT("timeout"),
    /** Splits chunks into {@code average_size} +/- {@code size_variation} bytes, {@code delay} microseconds apart. */
    SLICER("average_size", "size_variation", "delay"),
    /** Closes the connection once {@code bytes} bytes have passed in its direction. */
    LIMIT_DATA("bytes"),
    /** Resets both sides (TCP RST) {@code timeout} ms after the toxic starts on a connection. */
    RESET_PEER("timeout");

    private final List<String> attributeNames;

    ToxicType(String... attributeNames) {
        this.attributeNames = List.of(attributeNames);
    }

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static ToxicType fromWire(String s) {
        for (ToxicType t : values()) {
            if (t.wireName().equals(s)) {
                return t;
            }
        }
        throw ApiException.badRequest("unknown toxic type: " + s);
    }

    /** Returns {@code base} overlaid with the known names of {@code changes}, in declaration order; unknown names are ignored as Toxiproxy does. */
    Map<String, Long> attributes(Map<String, Long> base, Map<String, Long> changes) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String name : attributeNames) {
            out.put(name, changes.getOrDefault(name, base.getOrDefault(name, 0L)));
        }
        return out;
    }
}
