package io.lockchaos.history;

/**
 * A history file that cannot be read. The message is one line, {@code file:line: field: reason}, fit to show a user
 * as it is.
 */
public final class HistoryFormatException extends Exception {
    private final String source;
    private final long line;

    public HistoryFormatException(String source, long line, String reason) {
        super(source + ":" + line + ": " + reason);
        this.source = source;
        this.line = line;
    }

    public String source() {
        return source;
    }

    public long line() {
        return line;
    }
}
