package io.lockchaos.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Appends ops as JSON lines. Each {@link #append} writes one whole line and flushes it to the operating system, so a
 * runner killed at any moment leaves a file whose every complete line is a valid op. Thread-safe: workers record
 * concurrently and the writer assigns indexes in append order.
 */
public final class HistoryWriter implements Closeable {
    private static final JsonFactory JSON = new JsonFactory();
    private final Writer out;
    private final boolean flushEachLine;
    /** The file being appended to, when this writer made it: a failed write is cut back to its last whole line. */
    private final Path file;
    /** Bytes of whole lines the file holds (only counted with {@link #file}). */
    private long committed;
    /** Whole lines the file holds (only counted with {@link #file}). */
    private long lines;
    /** The write that failed: every append after it fails the same way, and writes nothing. */
    private WriteFailed failed;
    private long nextIndex;

    public HistoryWriter(Writer out, boolean flushEachLine) {
        this(out, flushEachLine, null);
    }

    private HistoryWriter(Writer out, boolean flushEachLine, Path file) {
        this.out = out;
        this.flushEachLine = flushEachLine;
        this.file = file;
    }

    /** Opens (creating or truncating) a history file that is flushed after every line. */
    public static HistoryWriter create(Path file) throws IOException {
        // a FileOutputStream, not a channel: an interrupted thread (the nemesis, stopped while it records) would close
        // a channel under every other writer, and the rest of the run could not be recorded
        return new HistoryWriter(new java.io.BufferedWriter(new OutputStreamWriter(new FileOutputStream(file.toFile()),
                StandardCharsets.UTF_8), 1 << 16), true, file);
    }

    /**
     * A write of the history failed (a full disk, a lost mount): the ops before it are whole lines of the file, and
     * nothing more is written. Its message is one line naming the file and the cause.
     */
    public static final class WriteFailed extends IOException {
        private final long opsKept;

        WriteFailed(String message, long opsKept, IOException cause) {
            super(message, cause);
            this.opsKept = opsKept;
        }

        /** How many ops the file holds, each a whole line. */
        public long opsKept() {
            return opsKept;
        }
    }

    /**
     * Writes the op, giving it the next index when its own is -1, and returns the op as written.
     *
     * @throws WriteFailed when this or an earlier write failed; the file then ends with its last whole line
     */
    public synchronized Op append(Op op) throws IOException {
        if (failed != null) {
            throw failed;
        }
        Op written = op.index() < 0 ? op.withIndex(nextIndex) : op;
        String line = toJsonLine(written);
        try {
            out.write(line);
            out.write('\n');
            if (flushEachLine) {
                out.flush();
            }
        } catch (IOException e) {
            throw fail(e);
        }
        nextIndex = written.index() + 1;
        if (file != null) {
            committed += line.getBytes(StandardCharsets.UTF_8).length + 1;
            lines++;
        }
        return written;
    }

    /** Remembers the failure and cuts a half-written line off the file, so that what was written stays readable. */
    private WriteFailed fail(IOException e) {
        String cut = "";
        if (file != null) {
            try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                f.setLength(committed); // takes no space: it frees some
            } catch (IOException t) {
                cut = "; its last line may be cut short";
            }
        }
        String cause = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        failed = new WriteFailed((file == null ? "the history" : file.toString()) + ": cannot write (" + cause
                + "); the " + lines + " ops written before are kept" + cut, lines, e);
        return failed;
    }

    /** Writes a whole history. */
    public static void write(Path file, History h) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            HistoryWriter hw = new HistoryWriter(w, false);
            for (Op op : h.ops()) {
                hw.append(op);
            }
        }
    }

    /** Returns one op as a JSON object without a line break. */
    public static String toJsonLine(Op op) {
        StringWriter sw = new StringWriter(128);
        try (JsonGenerator g = JSON.createGenerator(sw)) {
            g.writeStartObject();
            g.writeNumberField("index", op.index());
            g.writeNumberField("time", op.time());
            g.writeStringField("type", op.type().wireName());
            if (op.isNemesis()) {
                g.writeStringField("process", "nemesis");
            } else {
                g.writeNumberField("process", op.process());
            }
            g.writeStringField("f", op.f().wireName());
            if (op.key() != null) {
                g.writeStringField("key", op.key());
            }
            if (op.value() != null) {
                g.writeFieldName("value");
                JsonValues.write(g, op.value());
            }
            if (op.error() != null) {
                g.writeStringField("error", op.error());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return sw.toString();
    }

    @Override
    public synchronized void close() throws IOException {
        if (failed != null && file != null) {
            // its buffer holds the line that did not fit: flushing it on close would write half a line again
            try {
                out.close();
            } catch (IOException e) {
                // that flush failed as the write did; the file was cut back to its last whole line already
            }
            try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                f.setLength(committed);
            } catch (IOException e) {
                // the failure's message already says the last line may be cut short
            }
            return;
        }
        out.close();
    }
}
