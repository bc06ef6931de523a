package io.lockchaos.proxy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Applies the data-path effect of the toxics of one direction to each chunk, in the order the toxics were added.
 * The chain is read afresh for every chunk, which is how a toxic added to or removed from the proxy reaches
 * connections that are already open. Effects that are not about data (closing after a timeout, resetting) are timed
 * by {@link Connection}.
 */
final class ToxicChain {
    private final Pump pump;
    private final Connection connection;
    private final Direction direction;

    ToxicChain(Pump pump, Connection connection, Direction direction) {
        this.pump = pump;
        this.connection = connection;
        this.direction = direction;
    }

    /**
     * Passes one chunk through the chain and writes what survives.
     *
     * @return false when a toxic requires the connection to close (limit_data reached)
     */
    boolean deliver(Pump.Chunk chunk) throws IOException, InterruptedException {
        return pass(chunk.data(), chunk.arrivalNanos(), connection.activeToxics(direction), 0);
    }

    /** Returns the total slow_close delay in ms to wait before closing once the source has ended. */
    long slowCloseMillis() {
        return connection.activeToxics(direction).stream()
                .filter(t -> t.type() == ToxicType.SLOW_CLOSE)
                .mapToLong(t -> t.attribute("delay"))
                .sum();
    }

    private boolean pass(byte[] data, long arrival, List<Toxic> chain, int i)
            throws IOException, InterruptedException {
        if (i == chain.size()) {
            pump.write(data);
            return true;
        }
        Toxic t = chain.get(i);
        switch (t.type()) {
            case LATENCY -> {
                pump.awaitUntil(arrival + TimeUnit.MILLISECONDS.toNanos(latencyMillis(t)));
                return pass(data, arrival, chain, i + 1);
            }
            case BANDWIDTH -> {
                return throttle(data, arrival, chain, i, t.attribute("rate"));
            }
            case SLICER -> {
                return slice(data, arrival, chain, i, t);
            }
            case LIMIT_DATA -> {
                return limit(data, arrival, chain, i, t);
            }
            case TIMEOUT -> {
                return true; // held data is dropped, as Toxiproxy does; the connection stays open
            }
            default -> {
                return pass(data, arrival, chain, i + 1); // slow_close, reset_peer: no effect on data
            }
        }
    }

    private static long latencyMillis(Toxic t) {
        long latency = t.attribute("latency");
        long jitter = t.attribute("jitter");
        long delay = jitter > 0 ? latency + ThreadLocalRandom.current().nextLong(-jitter, jitter + 1) : latency;
        return Math.max(0, delay);
    }

    /** Sends at most 100 ms worth of bytes at a time, each after the time its size costs at {@code rate}. */
    private boolean throttle(byte[] data, long arrival, List<Toxic> chain, int i, long rate)
            throws IOException, InterruptedException {
        if (rate <= 0) {
            return pass(data, arrival, chain, i + 1);
        }
        int piece = (int) Math.min(Integer.MAX_VALUE, rate * 100);
        for (int off = 0; off < data.length; off += piece) {
            int n = Math.min(piece, data.length - off);
            // rate KB/s = rate bytes per ms, so n bytes cost n / rate ms
            pump.awaitUntil(System.nanoTime() + n * 1_000_000L / rate);
            if (!pass(Arrays.copyOfRange(data, off, off + n), arrival, chain, i + 1)) {
                return false;
            }
        }
        return true;
    }

    private boolean slice(byte[] data, long arrival, List<Toxic> chain, int i, Toxic t)
            throws IOException, InterruptedException {
        long average = t.attribute("average_size");
        long variation = Math.max(0, t.attribute("size_variation"));
        long delayMicros = t.attribute("delay");
        if (average <= 0) {
            return pass(data, arrival, chain, i + 1);
        }
        int off = 0;
        while (off < data.length) {
            long size = average + (variation > 0 ? ThreadLocalRandom.current().nextLong(-variation, variation + 1) : 0);
            int n = (int) Math.max(1, Math.min(size, data.length - off));
            if (!pass(Arrays.copyOfRange(data, off, off + n), arrival, chain, i + 1)) {
                return false;
            }
            off += n;
            if (off < data.length && delayMicros > 0) {
                pump.awaitUntil(System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(delayMicros));
            }
        }
        return true;
    }

    private boolean limit(byte[] data, long arrival, List<Toxic> chain, int i, Toxic t)
            throws IOException, InterruptedException {
        Connection.ToxicState state = connection.state(t);
        long allowed = t.attribute("bytes") - state.bytesPassed;
        int n = (int) Math.max(0, Math.min(allowed, data.length));
        state.bytesPassed += n;
        if (n > 0 && !pass(n == data.length ? data : Arrays.copyOf(data, n), arrival, chain, i + 1)) {
            return false;
        }
        return state.bytesPassed < t.attribute("bytes");
    }
}
