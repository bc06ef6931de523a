package io.lockchaos.core;

import io.lockchaos.workload.Cycle;
import io.lockchaos.workload.Generator;
import io.lockchaos.workload.Generators;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * What each worker of a {@link TestSpec} does: its key, whether it reads (read/write locks), and its generator of
 * lock cycles, all derived from the spec's seed so a run's workload is replayed exactly from its test.json.
 */
final class SpecWorkload {
    private final TestSpec spec;
    private final WorkloadSpec work;
    private final int keyOffset;
    private final int readerOffset;
    private final int readers;

    SpecWorkload(TestSpec spec) {
        this.spec = spec;
        this.work = spec.workload();
        int clients = spec.clients().count();
        SplittableRandom random = new SplittableRandom(spec.seed());
        this.keyOffset = random.nextInt(work.keys());
        this.readerOffset = random.nextInt(clients);
        int n = (int) Math.round(clients * work.readPct() / 100.0);
        // a mixed workload keeps at least one worker of each mode, or it tests nothing of the mix
        if (work.readPct() > 0 && work.readPct() < 100 && clients >= 2) {
            n = Math.max(1, Math.min(clients - 1, n));
        }
        this.readers = n;
    }

    /** The index of the key worker {@code w} uses: the seed rotates the assignment. */
    int keyIndex(int w) {
        return (w + keyOffset) % work.keys();
    }

    /** Whether worker {@code w} takes read locks (for read/write recipes; {@code read_pct} of the workers). */
    boolean reads(int w) {
        return (w + readerOffset) % spec.clients().count() < readers;
    }

    /** Milliseconds of warm-up before the main phase. */
    long warmupMillis() {
        return work.warmupSeconds() * 1000;
    }

    /**
     * Worker {@code w}'s cycles for the warm-up and main phases together: acquire with the spec's timeout (or a
     * single try, for {@code try_acquire_pct} of them), hold for {@code hold_ms} (or a random time up to {@code
     * hold_max_ms}), re-enter {@code reentry_depth} times, at {@code rate} cycles a second when set.
     */
    Generator generator(int w) {
        long seed = new SplittableRandom(spec.seed() ^ 0x5DEECE66DL * (w + 1)).nextLong();
        Generator g = Generators.repeat(new Cycle(0, work.acquireTimeoutMillis(), work.holdMillis(),
                spec.clients().reentryDepth()));
        if (work.holdMaxMillis() > work.holdMillis()) {
            g = Generators.holdBetween(work.holdMillis(), work.holdMaxMillis(), seed + 1, g);
        }
        if (work.tryAcquirePct() > 0) {
            g = Generators.tryAcquire(work.tryAcquirePct() / 100.0, seed + 2, g);
        }
        if (work.rate() > 0) {
            g = Generators.rate(work.rate(), seed + 3, g);
        }
        return Generators.timeLimit(Duration.ofSeconds(work.warmupSeconds() + work.timeSeconds()), g);
    }
}
