package io.lockchaos.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent protocol's line format: one JSON object per line, of strings, whole numbers, booleans, null, arrays and
 * nested objects. Written here rather than taken from Jackson because the agent's classpath is Curator's and nothing
 * else: whatever the agent loads besides the JDK must come from this project's own classes.
 */
public final class AgentWire {
    private AgentWire() {
    }

    /**
     * The longest line a client agent takes (1 MiB): far above any request of the protocol (an {@code open} with every
     * key of a run is a few KiB), and small enough that a connection cannot make the agent hold much memory.
     */
    public static final int MAX_LINE = 1 << 20;

    /** A line longer than the reader's bound: the connection is refused, never read on. */
    public static final class LineTooLong extends IOException {
        LineTooLong(int max) {
            super("a line longer than " + max + " bytes");
        }
    }

    /**
     * Reads UTF-8 lines of at most a given length from a stream, holding no more than that many bytes of one line: a
     * {@link java.io.BufferedReader} would keep reading a line without a newline until memory runs out.
     */
    public static final class LineReader {
        private final InputStream in;
        private final int max;
        private final byte[] buf = new byte[8192];
        private int pos;
        private int end;

        public LineReader(InputStream in, int max) {
            this.in = in;
            this.max = max;
        }

        /**
         * The next line without its end ({@code \n}, or {@code \r\n}), or null at the end of the stream.
         *
         * @throws LineTooLong once more than the bound was read without a newline (nothing more is read)
         */
        public String readLine() throws IOException {
            ByteArrayOutputStream line = null;
            while (true) {
                if (pos == end) {
                    int n = in.read(buf, 0, buf.length);
                    if (n < 0) {
                        return line == null ? null : text(line);
                    }
                    pos = 0;
                    end = n;
                }
                int start = pos;
                while (pos < end && buf[pos] != '\n') {
                    pos++;
                }
                int taken = pos - start;
                if (line == null) {
                    line = new ByteArrayOutputStream(Math.min(taken + 16, max));
                }
                if (line.size() + taken > max) {
                    throw new LineTooLong(max);
                }
                line.write(buf, start, taken);
                if (pos < end) {
                    pos++; // the newline
                    return text(line);
                }
            }
        }

        private static String text(ByteArrayOutputStream line) {
            String s = line.toString(StandardCharsets.UTF_8);
            return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }
    }

    /**
     * The {@code host:port} endpoints of a connect string ({@code h1:p1,h2:p2}, a ZooKeeper chroot after the last one
     * dropped), hosts in lower case: what an agent's allow-list holds and what an {@code open} is checked against.
     */
    public static List<String> endpoints(String connect) {
        String s = connect == null ? "" : connect;
        int slash = s.indexOf('/');
        if (slash >= 0) {
            s = s.substring(0, slash);
        }
        List<String> out = new ArrayList<>();
        for (String e : s.split(",")) {
            String t = e.strip().toLowerCase(java.util.Locale.ROOT);
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    /** One line (no newline) for {@code message}. */
    public static String encode(Map<String, ?> message) {
        StringBuilder b = new StringBuilder(128);
        write(b, message);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof String s) {
            string(b, s);
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer || v instanceof Short) {
            b.append(v);
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                string(b, String.valueOf(e.getKey()));
                b.append(':');
                write(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                write(b, l.get(i));
            }
            b.append(']');
        } else {
            throw new IllegalArgumentException("the agent protocol carries no " + v.getClass().getSimpleName());
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        // surrogates escaped too: a lone one would not survive the socket's UTF-8
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /**
     * The object on {@code line}.
     *
     * @throws IllegalArgumentException naming the column, for anything that is not one JSON object of the kinds above
     */
    public static Map<String, Object> decode(String line) {
        Parser p = new Parser(line);
        p.blank();
        Object v = p.value(0);
        p.blank();
        if (p.i != line.length() || !(v instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("agent protocol: expected one JSON object, column " + (p.i + 1));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) v;
        return m;
    }

    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        void blank() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        IllegalArgumentException bad(String what) {
            return new IllegalArgumentException("agent protocol: " + what + " at column " + (i + 1));
        }

        Object value(int depth) {
            if (depth > 16) {
                throw bad("nesting deeper than 16");
            }
            if (i >= s.length()) {
                throw bad("value expected");
            }
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                blank();
                if (peek('}')) {
                    return m;
                }
                while (true) {
                    blank();
                    if (i >= s.length() || s.charAt(i) != '"') {
                        throw bad("key expected");
                    }
                    String k = string();
                    blank();
                    expect(':');
                    blank();
                    m.put(k, value(depth + 1));
                    blank();
                    if (peek('}')) {
                        return m;
                    }
                    expect(',');
                }
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                blank();
                if (peek(']')) {
                    return l;
                }
                while (true) {
                    blank();
                    l.add(value(depth + 1));
                    blank();
                    if (peek(']')) {
                        return l;
                    }
                    expect(',');
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            if (c == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == start || (i == start + 1 && c == '-')) {
                throw bad("value expected");
            }
            try {
                return Long.parseLong(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw bad("number out of range");
            }
        }

        private boolean peek(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw bad("'" + c + "' expected");
            }
        }

        private String string() {
            i++; // the opening quote
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw bad("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (i >= s.length()) {
                    throw bad("unterminated escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (i + 4 > s.length()) {
                            throw bad("short \\u escape");
                        }
                        try {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        } catch (NumberFormatException x) {
                            throw bad("bad \\u escape");
                        }
                        i += 4;
                    }
                    default -> throw bad("bad escape");
                }
            }
        }
    }
}
