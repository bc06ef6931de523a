package io.lockchaos.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Times given on the command line: {@code 30}, {@code 30s}, {@code 500ms}, {@code 1.5s}, {@code 2m}, {@code 1h}. */
final class Durations {
    private static final Pattern FORM = Pattern.compile("([0-9]{1,12}(?:\\.[0-9]{1,9})?)(ms|s|m|h)?");

    private Durations() {
    }

    /**
     * Parses {@code text} given to {@code option}; a bare number is seconds.
     *
     * @throws UserError naming the option and the accepted forms
     */
    static Duration parse(String option, String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new UserError(option + ": expected a duration such as 30, 30s, 500ms, 1.5s, 2m or 1h, got '"
                    + text + "'");
        }
        String unit = m.group(2) == null ? "s" : m.group(2);
        BigDecimal nanosPerUnit = BigDecimal.valueOf(switch (unit) {
            case "ms" -> 1_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 1_000_000_000L;
        });
        BigDecimal nanos = new BigDecimal(m.group(1)).multiply(nanosPerUnit);
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new UserError(option + ": " + text + " is too long");
        }
        return Duration.ofNanos(nanos.longValue());
    }

    /**
     * {@code text} as a whole number of seconds, for the keys that count in seconds ({@code time_s}, {@code
     * warmup_s}).
     *
     * @throws UserError naming the option when it is not a duration or not whole seconds
     */
    static long wholeSeconds(String option, String text) {
        Duration d = parse(option, text);
        if (d.toNanos() % 1_000_000_000L != 0) {
            throw new UserError(option + ": runs last whole seconds, got " + text + " (use "
                    + Math.max(1, (d.toMillis() + 999) / 1000) + "s)");
        }
        return d.toSeconds();
    }
}
