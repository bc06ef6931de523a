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

    /** @param out the console, or null for silence */
    public Phases(PrintStream out) {
        this.out = out;
    }

    /** Starts a phase; closing the step prints its elapsed time on the same line. */
    public Step start(String name) {
        if (out != null) {
            out.print("  " + name + " ... ");
            out.flush();
        }
        return new Step(System.nanoTime());
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
