package io.lockchaos.history;

/**
 * A history file that cannot be read. The message is one line, {@code file:line: field: reason}, fit to show a user
 * as it is.
 */
public final class HistoryFormatException extends Exception {
    private final String source;
    private final long line;

    public HistoryFormatException(String source, long line, String reason) {
        super(oneLine(source + ":" + line + ": " + reason));
        this.source = source;
        this.line = line;
    }

    /** Escapes control characters (a decoded "\\r" in a field, say) and caps the length, so the message stays one line. */
    static String oneLine(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), 300));
        for (int i = 0; i < s.length() && b.length() < 300; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029 || c == 0x85) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.length() < 300 ? b.toString() : b + "...";
    }

    public String source() {
        return source;
    }

    public long line() {
        return line;
    }
}
