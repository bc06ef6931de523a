package io.lockchaos.core;

/** A workload that cannot run; the message is one line naming the file and the key. */
public final class SpecException extends Exception {
    public SpecException(String message) {
        super(message, null, false, false);
    }
}
