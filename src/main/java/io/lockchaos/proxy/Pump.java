package io.lockchaos.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One direction of one connection: reads chunks from the source socket, passes each through the toxic chain and
 * writes what comes out to the destination socket. Runs on its own thread.
 *
 * <p>While a toxic holds a chunk back ({@link #awaitUntil}), the pump keeps reading the source into a backlog and
 * stamps each chunk with its arrival time. That is what keeps latency faithful for pipelined traffic: a chunk that
 * arrived during an earlier chunk's delay is delayed from its own arrival, not from when the pump got to it.
 */
final class Pump implements Runnable {
    /** Chunk size of a read, as Toxiproxy's. */
    private static final int CHUNK_BYTES = 32 * 1024;
    /** Read-ahead stops here; the source then meets TCP back-pressure as it would against a slow peer. */
    private static final int MAX_BACKLOG_BYTES = 1 << 20;

    /** A piece of the stream and when it arrived ({@link System#nanoTime()}). */
    record Chunk(byte[] data, long arrivalNanos) {
    }

    private final Connection connection;
    private final Direction direction;
    private final Socket source;
    private final Socket destination;
    private final InputStream in;
    private final OutputStream out;
    private final ToxicChain chain;
    private final ArrayDeque<Chunk> backlog = new ArrayDeque<>();
    private int backlogBytes;
    private boolean sourceEnded;

    Pump(Connection connection, Direction direction, Socket source, Socket destination) throws IOException {
        this.connection = connection;
        this.direction = direction;
        this.source = source;
        this.destination = destination;
        this.in = source.getInputStream();
        this.out = destination.getOutputStream();
        this.chain = new ToxicChain(this, connection, direction);
    }

    Direction direction() {
        return direction;
    }

    @Override
    public void run() {
        try {
            Chunk chunk;
            while ((chunk = next()) != null) {
                if (!chain.deliver(chunk)) {
                    connection.close(); // limit_data reached: Toxiproxy closes the connection
                    return;
                }
            }
            // Like Toxiproxy, an error reading the source ends the stream just as EOF does, slow_close included.
            long delay = chain.slowCloseMillis();
            if (delay > 0) {
                Thread.sleep(delay);
            }
            connection.directionEnded(destination);
        } catch (IOException e) {
            connection.close(); // the destination failed; nothing more can be delivered either way
        } catch (InterruptedException e) {
            connection.close(); // the connection is closing and woke us from a toxic's wait
        }
    }

    /** Returns the next chunk, from the backlog first; null once the source has ended and the backlog is empty. */
    private Chunk next() {
        Chunk c = backlog.poll();
        if (c != null) {
            backlogBytes -= c.data().length;
            return c;
        }
        while (!sourceEnded) {
            c = read(0);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /**
     * Waits until {@code deadlineNanos} ({@link System#nanoTime()} clock) while reading ahead into the backlog.
     *
     * @throws InterruptedException when the connection is being closed
     */
    void awaitUntil(long deadlineNanos) throws InterruptedException {
        while (true) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            if (sourceEnded || backlogBytes >= MAX_BACKLOG_BYTES || remaining < 1_000_000) {
                TimeUnit.NANOSECONDS.sleep(remaining);
                return;
            }
            Chunk c = read((int) Math.min(Integer.MAX_VALUE, remaining / 1_000_000));
            if (c != null) {
                backlog.add(c);
                backlogBytes += c.data().length;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** Writes bytes to the destination. */
    void write(byte[] data) throws IOException {
        out.write(data);
        out.flush();
    }

    /**
     * Reads what the source has, waiting at most {@code timeoutMillis} (0: without limit). Returns null on timeout
     * or when the source ended, which is then remembered.
     */
    private Chunk read(int timeoutMillis) {
        byte[] buffer = new byte[CHUNK_BYTES];
        int n;
        try {
            source.setSoTimeout(timeoutMillis);
            n = in.read(buffer);
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            sourceEnded = true;
            return null;
        }
        return new Chunk(Arrays.copyOf(buffer, n), System.nanoTime());
    }
}
