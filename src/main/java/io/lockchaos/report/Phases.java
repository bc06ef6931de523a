package io.lockchaos.report;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The console's view of a run's phases around the workers' progress line: each phase is named when it starts and
 * its elapsed time is printed when it ends, so a run never sits silent while an ensemble starts or reports are
 * written. Printing only; with no console it prints nothing.
 */
public final class Phases {
    private final PrintStream out;
    private volatile String current;

    /** @param out the console, or null for silence */
    public Phases(PrintStream out) {
        this.out = out;
    }

    /** Starts a phase; closing the step prints its elapsed time on the same line. */
    public Step start(String name) {
        current = name;
        if (out != null) {
            out.print("  " + name + " ... ");
            out.flush();
        }
        return new Step(System.nanoTime());
    }

    /**
     * The phase entered last (still in progress, or the one that just failed and closed its step), or null before the
     * first: what a run that failed was doing.
     */
    public String current() {
        return current;
    }

    /** Enters a phase that prints no line of its own (the workers' phase has a progress line instead). */
    public void mark(String name) {
        current = name;
    }

    /** A phase in progress. */
    public final class Step implements AutoCloseable {
        private final long started;
        private boolean closed;

        private Step(long started) {
            this.started = started;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (out != null) {
                out.printf(Locale.ROOT, "%.1f s%n", (System.nanoTime() - started) / 1e9);
                out.flush();
            }
        }
    }
}
