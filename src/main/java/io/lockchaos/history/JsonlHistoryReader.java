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

    /** Files of at least this many bytes per piece are parsed in pieces, one thread each. */
    static final long PIECE_MIN_BYTES = 8L << 20;

    /**
     * Reads a history file. The parser reads the bytes itself (Jackson's UTF-8 parser, faster than decoding to
     * characters first); a byte sequence that is not UTF-8 is refused with its line. A large file is cut at line
     * ends into one piece per core, parsed at once; the pieces are only trusted when every one parses cleanly, so any
     * problem (a malformed line, an op spread over lines, a truncated end) is found and worded by one sequential
     * reading, exactly as for a small file.
     */
    public static History read(Path file) throws HistoryFormatException, IOException {
        long size = Files.size(file);
        return read(file, FilePieces.pieceCount(size));
    }

    /** Reads {@code file} in {@code pieces} pieces at once (1: sequentially); the tests choose the number. */
    static History read(Path file, int pieces) throws HistoryFormatException, IOException {
        if (pieces > 1) {
            History h = readInPieces(file, pieces);
            if (h != null) {
                return h;
            }
        }
        if (!Files.isRegularFile(file)) {
            // a pipe (check <(zcat h.jsonl.gz)) has no size and cannot seek: read it as a stream
            // FileInputStream, not Files.newInputStream, whose channel stream fails on a pipe with "Illegal seek"
            try (java.io.InputStream in = new java.io.FileInputStream(file.toFile())) {
                LineCountingStream counting = new LineCountingStream(new java.io.BufferedInputStream(in, 1 << 16));
                return build(file.toString(), List.of(readOps(file.toString(),
                        JSON.createParser((java.io.InputStream) counting), counting, true)));
            } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
                throw constraint(file.toString(), e);
            }
        }
        return build(file.toString(), List.of(readPiece(file, new FilePieces.Range(0, Files.size(file), true))));
    }

    public static History read(String source, Reader reader) throws HistoryFormatException, IOException {
        try {
            LineCountingReader counting = new LineCountingReader(reader);
            return build(source, List.of(readOps(source, JSON.createParser(counting), counting, true)));
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            throw constraint(source, e);
        } catch (StackOverflowError e) {
            throw new HistoryFormatException(source, 0, "line: nested too deeply");
        }
    }

    /** The ops of one piece of a file, with their piece-relative line numbers. */
    private record Piece(List<Op> ops, long[] lines, long truncatedLine, Boolean timed, long newlines) {
    }

    /** Parses {@code pieces} pieces of the file at once; null when any piece is not clean. */
    private static History readInPieces(Path file, int pieces) throws HistoryFormatException, IOException {
        List<Piece> read = FilePieces.parse(FilePieces.split(file, pieces), r -> readPiece(file, r));
        if (read == null) {
            return null;
        }
        Boolean timed = null;
        for (Piece piece : read) {
            if (timed != null && piece.timed() != null && !timed.equals(piece.timed())) {
                return null;
            }
            timed = timed != null ? timed : piece.timed();
        }
        return build(file.toString(), read);
    }

    /** Parses one range of the file; only the last may end in a line cut off by a crash. */
    private static Piece readPiece(Path file, FilePieces.Range r) throws HistoryFormatException, IOException {
        String source = file.toString();
        try (java.io.InputStream in = FilePieces.open(file, r)) {
            LineCountingStream counting = new LineCountingStream(new java.io.BufferedInputStream(in, 1 << 16));
            return readOps(source, JSON.createParser((java.io.InputStream) counting), counting, r.last());
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            throw constraint(source, e);
        } catch (java.io.CharConversionException e) {
            throw new HistoryFormatException(source, 0, "file: not valid UTF-8 (" + e.getMessage() + ")");
        } catch (StackOverflowError e) {
            throw new HistoryFormatException(source, 0, "line: nested too deeply");
        }
    }

    /** Joins the pieces in order: line numbers and (for a history without times) positions run on across them. */
    private static History build(String source, List<Piece> pieces) throws HistoryFormatException {
        int n = 0;
        for (Piece p : pieces) {
            n += p.ops().size();
        }
        List<Op> ops = new ArrayList<>(n);
        long[] lines = new long[n];
        List<String> warnings = new ArrayList<>();
        long lineBase = 0;
        for (Piece p : pieces) {
            boolean untimed = Boolean.FALSE.equals(p.timed());
            for (int i = 0; i < p.ops().size(); i++) {
                Op op = p.ops().get(i);
                lines[ops.size()] = p.lines()[i] + lineBase;
                ops.add(untimed ? op.withTime(ops.size()) : op);
            }
            if (p.truncatedLine() > 0) {
                warnings.add(source + ":" + (p.truncatedLine() + lineBase) + ": truncated last line dropped");
            }
            lineBase += p.newlines();
        }
        return History.build(source, ops, lines, warnings);
    }

    private static HistoryFormatException constraint(String source,
            com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
        return constraint(source, e.getLocation() == null ? 0 : e.getLocation().getLineNr(), e);
    }

    private static HistoryFormatException constraint(String source, long line,
            com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        // the parser's own words name its internals; say what was wrong with the line instead
        String what = m.contains("nesting depth")
                ? "nested more than " + JSON.streamReadConstraints().getMaxNestingDepth() + " levels deep"
                : firstLine(m).replaceAll(",? ?\\(from `[^`]*`\\)", "");
        return new HistoryFormatException(source, line, "line: " + what);
    }

    private static Piece readOps(String source, JsonParser parser, LineCounter counting, boolean last)
            throws HistoryFormatException, IOException {
        List<Op> ops = new ArrayList<>();
        long[] lines = new long[1024];
        long truncatedLine = 0;
        RecentStrings recent = new RecentStrings();
        Boolean timed = null;
        long lastEndLine = 0;
        // One streaming parser over the whole file: a parser per line costs about half the reading time.
        try (JsonParser p = parser) {
            while (true) {
                JsonToken t;
                // The parser stands just after the last op's closing brace (or at the start).
                long line = Math.max(1, lastEndLine);
                try {
                    t = p.nextToken();
                } catch (JsonParseException e) {
                    if (last && !notUtf8(e) && counting.isLastLine(line)) {
                        truncatedLine = line;
                        break;
                    }
                    throw malformed(source, e);
                }
                if (t == null) {
                    break;
                }
                line = tokenLine(p);
                if (t != JsonToken.START_OBJECT) {
                    throw new HistoryFormatException(source, line, "line: expected a JSON object");
                }
                if (line == lastEndLine) {
                    throw new HistoryFormatException(source, line, "line: more than one op on the line");
                }
                Op op;
                try {
                    op = parseOp(source, line, p, recent);
                } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
                    throw constraint(source, line, e);
                } catch (JsonParseException e) {
                    // Whatever the parser says, a line cut off by a crash is the last one and has no newline.
                    if (last && !notUtf8(e) && counting.isLastLine(line)) {
                        truncatedLine = line;
                        break;
                    }
                    throw malformed(source, e);
                }
                lastEndLine = tokenLine(p);
                boolean hasTime = op.time() >= 0;
                if (timed == null) {
                    timed = hasTime;
                } else if (timed != hasTime) {
                    throw new HistoryFormatException(source, line, hasTime
                            ? "time: present although earlier ops have none"
                            : "time: missing although earlier ops have it");
                }
                if (ops.size() == lines.length) {
                    lines = java.util.Arrays.copyOf(lines, lines.length * 2);
                }
                lines[ops.size()] = line;
                ops.add(op);
            }
        }
        return new Piece(ops, lines, truncatedLine, timed, counting.newlines());
    }

    /**
     * The line of the current token. Jackson's own parsers tell it without building a location object per call,
     * which cost a tenth of the reading time.
     */
    private static long tokenLine(JsonParser p) {
        return p instanceof com.fasterxml.jackson.core.base.ParserBase b ? b.getTokenLineNr()
                : p.currentTokenLocation().getLineNr();
    }

    /** What the reader needs to tell a line cut off by a crash (the last, with no newline) from a malformed one. */
    private interface LineCounter {
        /** True when all input has been read and no newline follows the start of line {@code line}. */
        boolean isLastLine(long line) throws IOException;

        /** The newlines consumed so far. */
        long newlines();
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
            // Jackson reads in bulk; one byte goes the same way so newlines are counted in one place
            byte[] one = new byte[1];
            return read(one, 0, 1) == 1 ? one[0] & 0xff : -1;
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
        public long newlines() {
            return newlines;
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
            // Jackson reads in bulk; one char goes the same way so newlines are counted in one place
            char[] one = new char[1];
            return read(one, 0, 1) == 1 ? one[0] : -1;
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
        public long newlines() {
            return newlines;
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
    private static Op parseOp(String source, long lineNo, JsonParser p, RecentStrings recent) throws HistoryFormatException, IOException {
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
                        type = text(source, lineNo, field, p, recent.types);
                        if (type == null) {
                            throw bad(source, lineNo, field, "unknown type '" + p.getText()
                                    + "' (expected invoke, ok, fail or info)");
                        }
                        break;
                    case "process":
                        process = process(source, lineNo, p);
                        break;
                    case "f":
                        f = text(source, lineNo, field, p, recent.fns);
                        if (f == null) {
                            throw bad(source, lineNo, field, "unknown f '" + p.getText() + "'");
                        }
                        break;
                    case "key":
                        key = p.currentToken() == JsonToken.VALUE_NULL ? null
                                : p.currentToken() == JsonToken.VALUE_STRING ? recent.keys.lookUp(p)
                                : scalarText(source, lineNo, field, p);
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

    private static <T> T text(String source, long line, String field, JsonParser p, Words<T> words)
            throws IOException, HistoryFormatException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw bad(source, line, field, "expected a string, got " + describe(p));
        }
        return words.lookUp(p);
    }

    /**
     * What the strings a history repeats on every line (types, functions, lock keys) mean, found by their characters
     * in the parser's buffer: a new String per field per line was a tenth of the reading time and most of its
     * garbage, and a String's own comparisons are slow before the optimising compiler gets to them.
     */
    private static final class Words<T> {
        private final char[][] words = new char[16][];
        private final Object[] meanings = new Object[16];
        private final java.util.function.Function<String, T> meaning;
        private int next;

        Words(java.util.function.Function<String, T> meaning) {
            this.meaning = meaning;
        }

        /** The meaning of the current string token; null when it has none. */
        @SuppressWarnings("unchecked")
        T lookUp(JsonParser p) throws IOException {
            char[] chars = p.getTextCharacters();
            int off = p.getTextOffset();
            int len = p.getTextLength();
            for (int w = 0; w < words.length; w++) {
                char[] word = words[w];
                if (word != null && word.length == len && same(word, chars, off, len)) {
                    return (T) meanings[w];
                }
            }
            String s = new String(chars, off, len);
            T m = meaning.apply(s);
            if (len <= 64 && m != null) {
                words[next] = s.toCharArray();
                meanings[next] = m;
                next = (next + 1) % words.length;
            }
            return m;
        }

        private static boolean same(char[] word, char[] chars, int off, int len) {
            for (int i = 0; i < len; i++) {
                if (word[i] != chars[off + i]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The repeated words of one piece: its own, since pieces are read on threads of their own. */
    private static final class RecentStrings {
        final Words<OpType> types = new Words<>(OpType::parse);
        final Words<Fn> fns = new Words<>(Fn::parse);
        final Words<String> keys = new Words<>(s -> s);
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
