package io.lockchaos.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a JSON-lines history, one op object per line. Blank lines are skipped; a last op that is cut off (a run killed while
 * writing) is dropped with a warning; any other malformed line is a {@link HistoryFormatException}. Ops without
 * {@code index} get their position; a history in which no op has {@code time} is ordered by position (older Jepsen
 * histories), but a history in which only some ops have it is rejected.
 */
public final class JsonlHistoryReader {
    private static final JsonFactory JSON = new JsonFactory();

    private JsonlHistoryReader() {
    }

    /**
     * Reads a history file. The parser reads the bytes itself (Jackson's UTF-8 parser, faster than decoding to
     * characters first); a byte sequence that is not UTF-8 is refused with its line.
     */
    public static History read(Path file) throws HistoryFormatException, IOException {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            LineCounter counting = new LineCountingStream(new java.io.BufferedInputStream(in, 1 << 16));
            return read(file.toString(), JSON.createParser((java.io.InputStream) counting), counting);
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new HistoryFormatException(file.toString(), line, "line: " + firstLine(e.getOriginalMessage()));
        } catch (java.io.CharConversionException e) {
            throw new HistoryFormatException(file.toString(), 0, "file: not valid UTF-8 (" + e.getMessage() + ")");
        } catch (StackOverflowError e) {
            throw new HistoryFormatException(file.toString(), 0, "line: nested too deeply");
        }
    }

    public static History read(String source, Reader reader) throws HistoryFormatException, IOException {
        try {
            LineCountingReader counting = new LineCountingReader(reader);
            return read(source, JSON.createParser(counting), counting);
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new HistoryFormatException(source, line, "line: " + firstLine(e.getOriginalMessage()));
        } catch (StackOverflowError e) {
            throw new HistoryFormatException(source, 0, "line: nested too deeply");
        }
    }

    private static History read(String source, JsonParser parser, LineCounter counting)
            throws HistoryFormatException, IOException {
        try {
            return readOps(source, parser, counting);
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new HistoryFormatException(source, line, "line: " + firstLine(e.getOriginalMessage()));
        }
    }

    private static History readOps(String source, JsonParser parser, LineCounter counting)
            throws HistoryFormatException, IOException {
        List<Op> ops = new ArrayList<>();
        long[] lines = new long[1024];
        List<String> warnings = new ArrayList<>();
        Boolean timed = null;
        long lastEndLine = 0;
        // One streaming parser over the whole file: a parser per line costs about half the reading time.
        try (JsonParser p = parser) {
            while (true) {
                JsonToken t;
                long line = p.currentLocation().getLineNr();
                try {
                    t = p.nextToken();
                } catch (JsonParseException e) {
                    if (!notUtf8(e) && counting.isLastLine(line)) {
                        warnings.add(source + ":" + line + ": truncated last line dropped");
                        break;
                    }
                    throw malformed(source, e);
                }
                if (t == null) {
                    break;
                }
                line = p.currentTokenLocation().getLineNr();
                if (t != JsonToken.START_OBJECT) {
                    throw new HistoryFormatException(source, line, "line: expected a JSON object");
                }
                if (line == lastEndLine) {
                    throw new HistoryFormatException(source, line, "line: more than one op on the line");
                }
                Op op;
                try {
                    op = parseOp(source, line, p);
                } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
                    throw new HistoryFormatException(source, line, "line: " + firstLine(e.getOriginalMessage()));
                } catch (JsonParseException e) {
                    // Whatever the parser says, a line cut off by a crash is the last one and has no newline.
                    if (!notUtf8(e) && counting.isLastLine(line)) {
                        warnings.add(source + ":" + line + ": truncated last line dropped");
                        break;
                    }
                    throw malformed(source, e);
                }
                lastEndLine = p.currentLocation().getLineNr();
                boolean hasTime = op.time() >= 0;
                if (timed == null) {
                    timed = hasTime;
                } else if (timed != hasTime) {
                    throw new HistoryFormatException(source, line, hasTime
                            ? "time: present although earlier ops have none"
                            : "time: missing although earlier ops have it");
                }
                if (!hasTime) {
                    op = op.withTime(ops.size());
                }
                if (ops.size() == lines.length) {
                    lines = java.util.Arrays.copyOf(lines, lines.length * 2);
                }
                lines[ops.size()] = line;
                ops.add(op);
            }
        }
        return History.build(source, ops, lines, warnings);
    }

    /** What the reader needs to tell a line cut off by a crash (the last, with no newline) from a malformed one. */
    private interface LineCounter {
        /** True when all input has been read and no newline follows the start of line {@code line}. */
        boolean isLastLine(long line) throws IOException;
    }

    /** Counts the newline bytes the parser has consumed. */
    private static final class LineCountingStream extends java.io.FilterInputStream implements LineCounter {
        private long newlines;
        private boolean eof;

        LineCountingStream(java.io.InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c < 0) {
                eof = true;
            } else if (c == '\n') {
                newlines++;
            }
            return c;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n < 0) {
                eof = true;
            }
            for (int i = 0; i < n; i++) {
                if (buf[off + i] == '\n') {
                    newlines++;
                }
            }
            return n;
        }

        @Override
        public boolean isLastLine(long line) throws IOException {
            byte[] skip = new byte[8192];
            while (!eof) {
                read(skip, 0, skip.length);
            }
            return newlines == line - 1;
        }
    }

    /** Counts the newlines the parser has consumed, to tell a cut-off last line from a malformed one. */
    private static final class LineCountingReader extends java.io.FilterReader implements LineCounter {
        private long newlines;
        private boolean eof;

        LineCountingReader(Reader in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c < 0) {
                eof = true;
            } else if (c == '\n') {
                newlines++;
            }
            return c;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n < 0) {
                eof = true;
            }
            for (int i = 0; i < n; i++) {
                if (buf[off + i] == '\n') {
                    newlines++;
                }
            }
            return n;
        }

        @Override
        public boolean isLastLine(long line) throws IOException {
            while (!eof) {
                char[] skip = new char[8192];
                read(skip, 0, skip.length);
            }
            return newlines == line - 1;
        }
    }

    /** Bytes that are not UTF-8 are refused wherever they are: a crash cuts a line short, it does not garble it. */
    private static boolean notUtf8(JsonParseException e) {
        return String.valueOf(e.getOriginalMessage()).contains("Invalid UTF-8");
    }

    private static HistoryFormatException malformed(String source, JsonParseException e) {
        long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        return new HistoryFormatException(source, line, "line: malformed JSON (" + firstLine(e.getOriginalMessage())
                + ")");
    }

    /** Parses the op whose START_OBJECT is the current token, leaving the parser on its END_OBJECT. */
    private static Op parseOp(String source, long lineNo, JsonParser p) throws HistoryFormatException, IOException {
        long index = -1;
        long time = -1;
        OpType type = null;
        Integer process = null;
        Fn f = null;
        String key = null;
        Object value = null;
        String error = null;
        String field = null;
        try {
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
                if (t != JsonToken.FIELD_NAME) {
                    throw new HistoryFormatException(source, lineNo, "line: expected a field name");
                }
                field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "index":
                        index = nonNegative(source, lineNo, field, p);
                        break;
                    case "time":
                        time = nonNegative(source, lineNo, field, p);
                        break;
                    case "type":
                        type = OpType.parse(text(source, lineNo, field, p));
                        if (type == null) {
                            throw bad(source, lineNo, field, "unknown type '" + p.getText()
                                    + "' (expected invoke, ok, fail or info)");
                        }
                        break;
                    case "process":
                        process = process(source, lineNo, p);
                        break;
                    case "f":
                        f = Fn.parse(text(source, lineNo, field, p));
                        if (f == null) {
                            throw bad(source, lineNo, field, "unknown f '" + p.getText() + "'");
                        }
                        break;
                    case "key":
                        key = p.currentToken() == JsonToken.VALUE_NULL ? null : scalarText(source, lineNo, field, p);
                        break;
                    case "value":
                        value = JsonValues.read(p);
                        break;
                    case "error":
                        error = p.currentToken() == JsonToken.VALUE_NULL ? null : errorText(p);
                        break;
                    default:
                        p.skipChildren();
                }
            }
        } catch (InputCoercionException e) {
            throw bad(source, lineNo, field, "number out of range");
        }
        if (type == null) {
            throw bad(source, lineNo, "type", "missing");
        }
        if (process == null) {
            throw bad(source, lineNo, "process", "missing");
        }
        if (f == null) {
            throw bad(source, lineNo, "f", "missing");
        }
        return new Op(index, time, type, process, f, key, value, error);
    }

    private static String firstLine(String m) {
        if (m == null) {
            return "unreadable";
        }
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private static HistoryFormatException bad(String source, long line, String field, String reason) {
        return new HistoryFormatException(source, line, (field == null ? "line" : field) + ": " + reason);
    }

    private static long nonNegative(String source, long line, String field, JsonParser p)
            throws IOException, HistoryFormatException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw bad(source, line, field, "expected a whole number, got " + describe(p));
        }
        long v = p.getLongValue();
        if (v < 0) {
            throw bad(source, line, field, "negative (" + v + ")");
        }
        return v;
    }

    private static String text(String source, long line, String field, JsonParser p)
            throws IOException, HistoryFormatException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw bad(source, line, field, "expected a string, got " + describe(p));
        }
        return p.getText();
    }

    private static String scalarText(String source, long line, String field, JsonParser p)
            throws IOException, HistoryFormatException {
        if (p.currentToken().isStructStart()) {
            throw bad(source, line, field, "expected a string, got " + describe(p));
        }
        return p.getText();
    }

    private static String errorText(JsonParser p) throws IOException {
        if (p.currentToken().isStructStart()) {
            Object v = JsonValues.read(p);
            return String.valueOf(v);
        }
        return p.getText();
    }

    private static int process(String source, long line, JsonParser p) throws IOException, HistoryFormatException {
        if (p.currentToken() == JsonToken.VALUE_STRING && "nemesis".equals(p.getText())) {
            return Op.NEMESIS;
        }
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw bad(source, line, "process", "expected a whole number or \"nemesis\", got " + describe(p));
        }
        long v = p.getLongValue();
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw bad(source, line, "process", "out of range (" + v + ")");
        }
        return (int) v;
    }

    private static String describe(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t.isStructStart()) {
            return t == JsonToken.START_ARRAY ? "an array" : "an object";
        }
        return "'" + p.getText() + "'";
    }
}
