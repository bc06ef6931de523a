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
 */
final class ResourceSampler implements AutoCloseable {
    static final long PERIOD_SECONDS = 60;

    private final Path file;
    private final LongSupplier ops;
    private final Path history;
    private final long start = System.nanoTime();
    private final ScheduledExecutorService timer;

    private ResourceSampler(Path file, LongSupplier ops, Path history) {
        this.file = file;
        this.ops = ops;
        this.history = history;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lockchaos-resource-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts sampling into {@code file}: one sample now, then every {@value #PERIOD_SECONDS} s until closed. */
    static ResourceSampler start(Path file, LongSupplier ops, Path history) {
        ResourceSampler s = new ResourceSampler(file, ops, history);
        s.sample();
        s.timer.scheduleAtFixedRate(s::sample, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
        return s;
    }

    private synchronized void sample() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        String line = String.format(java.util.Locale.ROOT, "{\"t_s\":%.1f,\"heap_used_mb\":%.1f,"
                + "\"heap_committed_mb\":%.1f,\"rss_mb\":%.1f,\"fds\":%d,\"threads\":%d,\"ops\":%d,"
                + "\"history_mb\":%.2f}%n", (System.nanoTime() - start) / 1e9, heap.getUsed() / 1048576.0,
                heap.getCommitted() / 1048576.0, rssKb() / 1024.0, fds(), Thread.activeCount(), ops.getAsLong(),
                size(history) / 1048576.0);
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
