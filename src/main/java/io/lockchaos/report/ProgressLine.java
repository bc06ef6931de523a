package io.lockchaos.report;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The console's view of a running test: elapsed and planned time, ops per second and the active faults, redrawn in
 * place every second on a terminal and written as a plain line every 10 s otherwise (CI logs); and a line of its own
 * the moment a live check sees a double holder. Printing only: it decides nothing. Its suppliers must not block (they
 * are read under this object's lock, which a recording thread may hold while it announces).
 */
public final class ProgressLine implements AutoCloseable {
    private final PrintStream out;
    private final long plannedSeconds;
    private final LongSupplier ops;
    private final Supplier<List<String>> faults;
    private final boolean terminal = System.console() != null;
    private final long start = System.nanoTime();
    private final Thread thread;
    private long lastOps;
    private long lastAt = System.nanoTime();

    /**
     * Starts drawing.
     *
     * @param plannedSeconds warm-up plus main phase
     * @param ops ops recorded so far
     * @param faults the faults active now
     */
    public ProgressLine(PrintStream out, long plannedSeconds, LongSupplier ops, Supplier<List<String>> faults) {
        this.out = out;
        this.plannedSeconds = plannedSeconds;
        this.ops = ops;
        this.faults = faults;
        this.thread = new Thread(this::loop, "lockchaos-progress");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        long period = terminal ? 1000 : 10_000;
        try {
            while (true) {
                Thread.sleep(period);
                String line = line();
                synchronized (this) {
                    out.print(terminal ? "\r" + line + "   " : "  " + line + System.lineSeparator());
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** The progress text: elapsed / planned, ops/s since the last line, active faults. */
    synchronized String line() {
        return line(false);
    }

    private synchronized String line(boolean done) {
        long now = System.nanoTime();
        long n = ops.getAsLong();
        double rate = (n - lastOps) / Math.max(1e-9, (now - lastAt) / 1e9);
        lastOps = n;
        lastAt = now;
        List<String> f = faults.get();
        double elapsed = (now - start) / 1e9;
        // workers end with the cycle they are in, after the plan: say so rather than show a figure past the plan
        String clock = done ? String.format(Locale.ROOT, "[%5d / %d s]", plannedSeconds, plannedSeconds)
                : elapsed <= plannedSeconds ? String.format(Locale.ROOT, "[%5.1f / %d s]", elapsed, plannedSeconds)
                : String.format(Locale.ROOT, "[%5d / %d s, finishing the last cycles]", plannedSeconds, plannedSeconds);
        return String.format(Locale.ROOT, "%s workers%s: %d ops, %.0f ops/s, faults: %s", clock, done ? " done" : "",
                n, rate, f.isEmpty() ? "none" : String.join(", ", f));
    }

    /** Prints a line of its own at once (a live detection), keeping the progress line intact below it. */
    public synchronized void announce(String message) {
        out.print((terminal ? "\r" : "") + message + System.lineSeparator());
        out.flush();
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // the last line, also in CI logs, so even a run shorter than one period shows its workers' phase
        synchronized (this) {
            // on a terminal, \033[K clears what a longer line before it left at the end
            out.print((terminal ? "\r" : "  ") + line(true) + (terminal ? "\033[K" : "") + System.lineSeparator());
            out.flush();
        }
    }
}
