package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TimesTest {
    @Test
    void instantsInSecondsWithMilliseconds() {
        assertEquals("0.000 s", Times.at(0));
        assertEquals("1.234 s", Times.at(1_234_000_000L));
        assertEquals("0.001 s", Times.at(999_999));
        assertEquals("the end", Times.at(Long.MAX_VALUE));
        assertEquals("9223372036.855 s", Times.at(Long.MAX_VALUE - 1));
    }

    @Test
    void spansInTheMostReadableUnit() {
        assertEquals("0 ns", Times.span(0));
        assertEquals("999 ns", Times.span(999));
        assertEquals("1.0 µs", Times.span(1_000));
        assertEquals("999.9 µs", Times.span(999_900));
        assertEquals("1.00 ms", Times.span(1_000_000));
        assertEquals("999.99 ms", Times.span(999_990_000));
        assertEquals("1.00 s", Times.span(1_000_000_000));
        assertEquals("12.35 s", Times.span(12_345_000_000L));
    }
}
