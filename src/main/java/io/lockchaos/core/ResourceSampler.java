package io.lockchaos.core;

import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What the runner itself uses while its workers run, one JSON line per sample in the run's {@code resources.jsonl}:
 * seconds since the start, heap used and committed, resident set, open file descriptors, threads, ops recorded and the
 * history's size. A sample at the start, one a minute, one at the end: a long soak shows whether memory, descriptors or
 * threads grow with the run rather than settle after warm-up.
 *
 * <p>Neither the heap in use at a sample (mostly garbage awaiting the next collection) nor the committed heap and the
 * resident set (which grow whenever the collector picks a bigger heap: G1 went from 212 MB committed at the soak's
 * first minute to 308 MB two minutes later) says whether something leaks. When the run has a memory bound, each
 * sample therefore first runs a full collection and records the heap still in use after it, {@code heap_live_mb}
 * (what the runner really holds on to), and how long that collection stopped the runner, {@code gc_ms}.
 */
final class ResourceSampler implements AutoCloseable {
    static final long PERIOD_SECONDS = 60;

    private final Path file;
    private final LongSupplier ops;
    private final Path history;
    private final long start = System.nanoTime();
    private final ScheduledExecutorService timer;
    private final boolean live;

    private ResourceSampler(Path file, LongSupplier ops, Path history, boolean live) {
        this.file = file;
        this.live = live;
        this.ops = ops;
        this.history = history;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lockchaos-resource-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts sampling into {@code file}: one sample now, then every {@value #PERIOD_SECONDS} s until closed; with
     * {@code live}, each after a full collection.
     */
    static ResourceSampler start(Path file, LongSupplier ops, Path history, boolean live) {
        ResourceSampler s = new ResourceSampler(file, ops, history, live);
        s.sample();
        s.timer.scheduleAtFixedRate(s::sample, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        return s;
    }

    private synchronized void sample() {
        double t = (System.nanoTime() - start) / 1e9;
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        String gc = "";
        if (live) {
            long before = System.nanoTime();
            ManagementFactory.getMemoryMXBean().gc();
            long pause = System.nanoTime() - before;
            gc = String.format(java.util.Locale.ROOT, ",\"heap_live_mb\":%.1f,\"gc_ms\":%.0f",
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0, pause / 1e6);
        }
        String line = String.format(java.util.Locale.ROOT, "{\"t_s\":%.1f,\"heap_used_mb\":%.1f,"
                + "\"heap_committed_mb\":%.1f%s,\"rss_mb\":%.1f,\"fds\":%d,\"threads\":%d,\"ops\":%d,"
                + "\"history_mb\":%.2f}%n", t, heap.getUsed() / 1048576.0, heap.getCommitted() / 1048576.0, gc,
                rssKb() / 1024.0, fds(), Thread.activeCount(), ops.getAsLong(), size(history) / 1048576.0);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            w.write(line);
        } catch (IOException e) {
            // a sample is not worth a run: the next one tries again
        }
    }

    /** VmRSS from /proc/self/status, in KB; -1 where there is no /proc. */
    private static long rssKb() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return -1;
    }

    private static long fds() {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        } catch (IOException e) {
            return -1;
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Takes the last sample and stops. */
    @Override
    public void close() {
        timer.shutdownNow();
        sample();
    }
}
