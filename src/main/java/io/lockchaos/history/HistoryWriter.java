package io.lockchaos.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends ops as JSON lines. Each {@link #append} writes one whole line and flushes it to the operating system, so a
 * runner killed at any moment leaves a file whose every complete line is a valid op. Thread-safe: workers record
 * concurrently and the writer assigns indexes in append order.
 */
public final class HistoryWriter implements Closeable {
    private static final JsonFactory JSON = new JsonFactory();
    private final Writer out;
    private final boolean flushEachLine;
    private long nextIndex;

    public HistoryWriter(Writer out, boolean flushEachLine) {
        this.out = out;
        this.flushEachLine = flushEachLine;
    }

    /** Opens (creating or truncating) a history file that is flushed after every line. */
    public static HistoryWriter create(Path file) throws IOException {
        OutputStream os = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        return new HistoryWriter(new java.io.BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16),
                true);
    }

    /**
     * Writes the op, giving it the next index when its own is -1, and returns the op as written.
     */
    public synchronized Op append(Op op) throws IOException {
        Op written = op.index() < 0 ? op.withIndex(nextIndex) : op;
        nextIndex = written.index() + 1;
        out.write(toJsonLine(written));
        out.write('\n');
        if (flushEachLine) {
            out.flush();
        }
        return written;
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
        out.close();
    }
}
