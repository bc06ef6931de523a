package io.lockchaos.zookeeper;

import java.util.Map;

/**
 * How a Curator recipe's client retries and connects, from the workload's {@code lock_settings}: {@code retry_times}
 * ({@code RetryNTimes}' count, default 3), {@code retry_sleep_ms} (its sleep, default 100) and {@code
 * connection_timeout_ms} (default half the session timeout, at least a second). An application's own choices change
 * what a connection loss does to a call: with no retries and a short connection timeout a release throws while its
 * session lives on (CURATOR-678), with the defaults it waits the loss out.
 *
 * @param retryTimes how many times an operation is retried after a connection loss
 * @param retrySleepMillis how long between tries
 * @param connectionTimeoutMillis how long an operation waits for a connection, or 0 for the run's default
 */
public record CuratorSettings(int retryTimes, int retrySleepMillis, int connectionTimeoutMillis) {
    /** Reads the settings, refusing a value out of range with one line naming it. */
    public static CuratorSettings of(Map<String, String> settings) {
        return new CuratorSettings(number(settings, "retry_times", 3, 0, 29),
                number(settings, "retry_sleep_ms", 100, 0, 60_000),
                number(settings, "connection_timeout_ms", 0, 1, 600_000));
    }

    /** The connection timeout, or {@code runDefault} when the settings give none. */
    public int connectionTimeoutMillis(long runDefault) {
        return connectionTimeoutMillis > 0 ? connectionTimeoutMillis : (int) runDefault;
    }

    private static int number(Map<String, String> settings, String name, int absent, int min, int max) {
        String v = settings.get(name);
        if (v == null) {
            return absent;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("lock_settings: " + name + ": expected a whole number from " + min + " to "
                + max + ", got '" + v + "'");
    }
}
