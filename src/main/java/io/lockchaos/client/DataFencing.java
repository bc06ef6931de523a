package io.lockchaos.client;

import java.util.Locale;

/** How writes to the protected data in a database use the grant's fencing token ({@code data_fencing}). */
public enum DataFencing {
    /** Unconditioned: the tutorial's plain pattern. */
    NONE,
    /** The write is conditioned on the token ({@code UPDATE ... WHERE fence <= token}), as a fenced register's is. */
    TOKEN,
    /**
     * The read claims the row with the token first (raising its fence, refused when a higher token has claimed it),
     * and the write is conditioned as with {@link #TOKEN}: no lower token writes after a higher one has read.
     */
    CLAIM;

    /** Its value in a workload ({@code none}, {@code token}, {@code claim}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The fencing {@code text} names.
     *
     * @throws IllegalArgumentException naming the key, for any other value
     */
    public static DataFencing parse(String text) {
        for (DataFencing f : values()) {
            if (f.wireName().equals(text)) {
                return f;
            }
        }
        throw new IllegalArgumentException("data_fencing: expected none, token or claim, got '" + text + "'");
    }
}
