package io.lockchaos.history;

import java.util.Locale;

/** Formats history times (nanoseconds since the start) for people. */
public final class Times {
    private Times() {
    }

    /** Seconds with millisecond precision, or "the end" for an open window: {@code 12.345 s}. */
    public static String at(long ns) {
        if (ns == Long.MAX_VALUE) {
            return "the end";
        }
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    /** A duration in the most readable unit: {@code 1 ns}, {@code 12.3 µs}, {@code 4.56 ms}, {@code 7.89 s}. */
    public static String span(long ns) {
        if (ns < 1_000) {
            return ns + " ns";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }
}
