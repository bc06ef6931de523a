package io.lockchaos.cli;

/** A failure caused by the user's input; its message is printed as one line and the exit code is 2. */
final class UserError extends RuntimeException {
    UserError(String message) {
        super(message, null, false, false);
    }
}
