package io.lockchaos.proxy;

/**
 * Time limits for the JDK's HTTP server, which lockchaos' listeners (the proxy API, {@code serve}) are built on. That
 * server reads a request's line and headers on a pool thread and, by default, waits for them without end: four
 * clients that sent half a request held every thread of {@code serve} until they gave up. Its limits are JVM-wide
 * settings read once, when the first server of the JVM is made, so every listener applies them before making one.
 */
public final class HttpLimits {
    /** Seconds a client has to send its request line and headers; then its connection is closed. */
    public static final int REQUEST_SECONDS = 10;
    /**
     * Seconds a response may take to be written; then its connection is closed. Long enough for a large history to
     * a slow reader (130 MB at 1 MB/s), short enough that a client that never reads gives its thread back.
     */
    public static final int RESPONSE_SECONDS = 600;

    static {
        setUnlessGiven("sun.net.httpserver.maxReqTime", REQUEST_SECONDS);
        setUnlessGiven("sun.net.httpserver.maxRspTime", RESPONSE_SECONDS);
        // A request body a handler left unread is drained before the connection is reused, and a client that
        // announced a body it never sends held a thread for that long; unread, the connection is closed instead.
        setUnlessGiven("sun.net.httpserver.drainAmount", 0);
    }

    private HttpLimits() {
    }

    /** Puts the limits in force for every server this JVM makes from now on (the first call does the work). */
    public static void apply() {
        // the static initializer has run by the time this returns
    }

    private static void setUnlessGiven(String property, int seconds) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, Integer.toString(seconds));
        }
    }
}
