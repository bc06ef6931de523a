package io.lockchaos.history;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a history file at line ends into pieces that are parsed at once, one thread each. A piece boundary may fall
 * inside an op written over several lines; then the piece before it ends inside a value and fails, which is why a
 * caller trusts the pieces only when every one parses cleanly and otherwise reads the file once, in order.
 */
final class FilePieces {
    /**
     * How many pieces to read a file of {@code size} bytes in: one per core, at most 8, none smaller than
     * {@link JsonlHistoryReader#PIECE_MIN_BYTES}. Only speed depends on it (any count reads the same history, which
     * the pieces tests check), so mutation testing leaves it out.
     */
    static int pieceCount(long size) {
        return (int) Math.min(Math.min(Runtime.getRuntime().availableProcessors(), 8),
                size / JsonlHistoryReader.PIECE_MIN_BYTES);
    }

    private FilePieces() {
    }

    /** Bytes {@code from..to} of the file; only the {@code last} piece may end in a line cut off by a crash. */
    record Range(long from, long to, boolean last) {
    }

    /** What parses one piece; any exception means "not clean". */
    interface PieceParser<T> {
        T parse(Range r) throws Exception;
    }

    /** Up to {@code pieces} ranges of about equal size, each starting at a line start; never an empty one. */
    static List<Range> split(Path file, int pieces) throws IOException {
        List<Range> out = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(file)) {
            long size = ch.size();
            long from = 0;
            for (int i = 1; i <= pieces && from < size; i++) {
                long to = i == pieces ? size : lineStartAfter(ch, Math.max(from, size * i / pieces), size);
                if (to > from) {
                    out.add(new Range(from, to, to == size));
                }
                from = to;
            }
        }
        return out;
    }

    /** How many files were read in clean pieces (never re-read in order): the tests check the pieces are used. */
    static final java.util.concurrent.atomic.AtomicLong CLEAN = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Each range parsed on its own thread (not the common pool, whose size is one less than the cores), in order; null
     * when any of them fails. The first failure interrupts the other pieces' threads, since the caller then reads the
     * whole file again in order: their reads stop at once (a file channel closes on interrupt), so they do not keep
     * a core and a second copy of the ops to themselves meanwhile.
     */
    static <T> List<T> parse(List<Range> ranges, PieceParser<T> parser) {
        int n = ranges.size();
        List<T> results = new ArrayList<>(java.util.Collections.nCopies(n, null));
        java.util.concurrent.BlockingQueue<Boolean> finished = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.atomic.AtomicReference<Error> fatal = new java.util.concurrent.atomic.AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int piece = i;
            Thread t = new Thread(() -> {
                boolean clean = false;
                try {
                    T parsed = parser.parse(ranges.get(piece));
                    results.set(piece, parsed); // seen by the caller through the queue below
                    clean = parsed != null;
                } catch (Exception | StackOverflowError e) {
                    // not clean
                } catch (Error e) {
                    // out of memory and the like: the caller's, not a reason to read the file again
                    fatal.compareAndSet(null, e);
                } finally {
                    finished.add(clean);
                }
            }, "lockchaos-read");
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        boolean interrupted = false;
        try {
            for (int i = 0; i < n; ) {
                boolean clean;
                try {
                    clean = finished.take();
                } catch (InterruptedException e) {
                    // reading is not cancelled by an interrupt (it was not before the pieces either); kept for after
                    interrupted = true;
                    continue;
                }
                i++;
                if (!clean) {
                    threads.forEach(Thread::interrupt);
                    if (fatal.get() != null) {
                        throw fatal.get();
                    }
                    return null;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        CLEAN.incrementAndGet();
        return results;
    }

    /** The range's bytes, buffered by the caller. */
    static InputStream open(Path file, Range r) throws IOException {
        FileChannel ch = FileChannel.open(file);
        ch.position(r.from());
        return new Bounded(Channels.newInputStream(ch), r.to() - r.from());
    }

    /** The position just after the first newline at or after {@code from}, or {@code size}. */
    private static long lineStartAfter(FileChannel ch, long from, long size) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        long pos = from;
        while (pos < size) {
            buf.clear();
            int n = ch.read(buf, pos);
            if (n <= 0) {
                return size;
            }
            for (int i = 0; i < n; i++) {
                if (buf.get(i) == '\n') {
                    return pos + i + 1;
                }
            }
            pos += n;
        }
        return size;
    }

    /** At most {@code limit} bytes of a stream. */
    private static final class Bounded extends FilterInputStream {
        private long left;

        Bounded(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            // readers read in bulk; one byte goes the same way so the bound is kept in one place
            byte[] one = new byte[1];
            return read(one, 0, 1) == 1 ? one[0] & 0xff : -1;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = super.read(buf, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }
}
