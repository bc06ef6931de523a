package io.lockchaos.cluster;

/**
 * Something this machine lacks that the user can provide (an image, a program, a permission). Its message is one
 * line that names what is missing and how to get it; the command line prints it as it is, never as an internal
 * error, and exits 2.
 */
public final class EnvironmentProblem extends RuntimeException {
    public EnvironmentProblem(String message) {
        super(message);
    }

    /** The first EnvironmentProblem in {@code t}'s chain of causes, or null. */
    public static EnvironmentProblem in(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof EnvironmentProblem p) {
                return p;
            }
        }
        return null;
    }
}
