package io.lockchaos.history;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import us.bpsm.edn.Keyword;
import us.bpsm.edn.Symbol;

/**
 * A streaming reader of the EDN that Jepsen histories hold: maps, vectors, lists, sets, keywords, symbols, strings,
 * characters, numbers (with {@code N}, {@code M}, ratios, {@code ##Inf}), {@code nil}, booleans, comments, {@code
 * #_} discards and tagged values (record literals such as {@code #jepsen.history.Op{...}} and {@code #inst}, read as
 * the value they tag). It reads from a buffered {@link Reader}, never the whole file as one string, counts lines, and
 * refuses nesting deeper than {@link EdnHistory#MAX_DEPTH} before it could overflow the stack. Keywords and symbols
 * are edn-java's, so the values are what edn-java's parser would give.
 */
final class EdnReader {
    /** End of input inside a value; the caller decides whether that is a truncated last line. */
    static final class EndOfInput extends Exception {
        EndOfInput() {
            super(null, null, false, false);
        }
    }

    /** What {@code #_ form} reads as: containers and the top level leave it out. */
    static final Object DISCARDED = new Object();

    private static final int EOF = -1;
    private final String source;
    private final Reader in;
    private final char[] buf = new char[1 << 16];
    private int pos;
    private int len;
    private long line = 1;
    private final StringBuilder token = new StringBuilder();

    EdnReader(String source, Reader in) {
        this.source = source;
        this.in = in;
    }

    long line() {
        return line;
    }

    int peek() throws IOException {
        if (pos == len) {
            len = in.read(buf, 0, buf.length);
            pos = 0;
            if (len <= 0) {
                len = 0;
                return EOF;
            }
        }
        return buf[pos];
    }

    int next() throws IOException {
        int c = peek();
        if (c != EOF) {
            pos++;
            if (c == '\n') {
                line++;
            }
        }
        return c;
    }

    /** Skips whitespace, commas and comments; with {@code newlines} false, stops at a newline. */
    void skipSpace(boolean newlines) throws IOException {
        while (true) {
            // the common run of spaces and commas, scanned in the buffer without a call per character
            int p = pos;
            int end = len;
            char[] b = buf;
            while (p < end) {
                char c = b[p];
                if (c == ' ' || c == ',') {
                    p++;
                } else if (c == '\n' && newlines) {
                    line++;
                    p++;
                } else {
                    break;
                }
            }
            pos = p;
            int c = peek();
            if (c > ' ' && c < 0x7f && c != ';' && c != ',') {
                return; // the start of a token or a bracket: the common case, decided without isWhitespace
            }
            if (c == ';') {
                while (peek() != '\n' && peek() != EOF) {
                    next();
                }
            } else if (c == '\n' ? newlines : c != EOF && (Character.isWhitespace(c) || c == ',' || c == '\uFEFF')) {
                next();
            } else {
                return;
            }
        }
    }

    HistoryFormatException malformed(String why) {
        return new HistoryFormatException(source, line, "line: malformed EDN (" + why + ")");
    }

    /**
     * Reads one value whose enclosing containers number {@code depth}.
     *
     * @throws EndOfInput when the input ends inside the value
     */
    Object value(int depth) throws IOException, HistoryFormatException, EndOfInput {
        skipSpace(true);
        int c = next();
        switch (c) {
            case EOF:
                throw new EndOfInput();
            case '{':
                return map(open(depth), '}');
            case '[':
                return sequence(open(depth), ']');
            case '(':
                return sequence(open(depth), ')');
            case '"':
                return string();
            case ':':
                return keyword();
            case '\\':
                return character();
            case '#':
                return dispatch(depth);
            case ')':
            case ']':
            case '}':
                throw malformed("unexpected '" + (char) c + "'");
            default:
                return atom((char) c);
        }
    }

    private int open(int depth) throws HistoryFormatException {
        if (depth + 1 > EdnHistory.MAX_DEPTH) {
            throw new HistoryFormatException(source, line, "line: nested more than " + EdnHistory.MAX_DEPTH
                    + " levels deep");
        }
        return depth + 1;
    }

    /** Reads values up to {@code close}; the opening bracket is read. */
    private List<Object> sequence(int depth, char close) throws IOException, HistoryFormatException, EndOfInput {
        List<Object> out = new ArrayList<>();
        while (true) {
            skipSpace(true);
            int c = peek();
            if (c == close) {
                next();
                return out;
            }
            if (c == EOF) {
                throw new EndOfInput();
            }
            Object v = value(depth);
            if (v != DISCARDED) {
                out.add(v);
            }
        }
    }

    /** A map, read straight into a compact map (no list of forms, no hash table: an op map has seven keys). */
    private Map<Object, Object> map(int depth, char close) throws IOException, HistoryFormatException, EndOfInput {
        SmallMap.Builder<Object> m = new SmallMap.Builder<>();
        Object key = null;
        int forms = 0;
        while (true) {
            skipSpace(true);
            int c = peek();
            if (c == close) {
                next();
                break;
            }
            if (c == EOF) {
                throw new EndOfInput();
            }
            Object v = value(depth);
            if (v == DISCARDED) {
                continue;
            }
            if (forms++ % 2 == 0) {
                key = v;
            } else {
                m.put(key, v);
            }
        }
        if (forms % 2 != 0) {
            throw malformed("a map needs an even number of forms, got " + forms);
        }
        return m.build();
    }

    private Object dispatch(int depth) throws IOException, HistoryFormatException, EndOfInput {
        int c = peek();
        if (c == '{') {
            next();
            Set<Object> s = new LinkedHashSet<>(sequence(open(depth), '}'));
            return s;
        }
        if (c == '_') {
            next();
            value(open(depth)); // a discard nests like a container: a line of #_#_#_... cannot overflow the stack
            return DISCARDED;
        }
        if (c == '#') {
            next();
            String t = readToken();
            switch (t) {
                case "Inf": return Double.POSITIVE_INFINITY;
                case "-Inf": return Double.NEGATIVE_INFINITY;
                case "NaN": return Double.NaN;
                default: return cutOrFail("unknown symbolic value ##" + t);
            }
        }
        if (c == EOF) {
            throw new EndOfInput();
        }
        String tag = readToken();
        if (tag.isEmpty() || !Character.isLetter(tag.charAt(0))) {
            return cutOrFail("bad tag '#" + tag + "'");
        }
        return value(open(depth)); // a record literal or #inst: the value it tags (nesting like a container)
    }

    /** Whether the last token read ended at the end of the input (it may have been cut short there). */
    private boolean tokenAtEnd;

    /**
     * A bad token that ended with the input may be a value cut short by a crash (a last line ending in {@code :} or
     * {@code ##In}): that is the end of input, which the caller may forgive on the last line; otherwise malformed.
     */
    private <T> T cutOrFail(String why) throws EndOfInput, HistoryFormatException {
        if (tokenAtEnd) {
            throw new EndOfInput();
        }
        throw malformed(why);
    }

    private String readToken() throws IOException {
        readTokenChars();
        return token.toString();
    }

    /** Reads a token's characters into {@link #token}; tokens never span lines, so no line is counted here. */
    private void readTokenChars() throws IOException {
        token.setLength(0);
        tokenAtEnd = false;
        int h = 0;
        while (true) {
            if (pos == len && peek() == EOF) {
                tokenAtEnd = true;
                tokenHash = h;
                return;
            }
            int start = pos;
            int p = pos;
            int end = len;
            char[] b = buf;
            while (p < end && !endsToken(b[p])) {
                h = 31 * h + b[p]; // String.hashCode's, computed in the scan the token needs anyway
                p++;
            }
            tokenHash = h;
            token.append(b, start, p - start);
            pos = p;
            if (p < end) {
                return;
            }
        }
    }

    private static boolean endsToken(char c) {
        return c <= ' ' || c == ',' || c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}'
                || c == '"' || c == ';' || c == '\\' || c > 0x7f && Character.isWhitespace(c);
    }

    private final StringBuilder text = new StringBuilder();
    /** Strings a history repeats (lock keys, errors), handed out once each instead of once per op. */
    private final String[] recentStrings = new String[16];
    private int nextRecent;

    private String string() throws IOException, HistoryFormatException, EndOfInput {
        StringBuilder s = text;
        s.setLength(0);
        // the common string, without escapes or newlines, copied in one piece from the buffer
        int p = pos;
        int end = len;
        char[] b = buf;
        while (p < end && b[p] != '"' && b[p] != '\\' && b[p] != '\n') {
            p++;
        }
        s.append(b, pos, p - pos);
        pos = p;
        while (true) {
            int c = next();
            if (c == EOF) {
                throw new EndOfInput();
            }
            if (c == '"') {
                return shared(s);
            }
            if (c == '\\') {
                int e = next();
                switch (e) {
                    case EOF -> throw new EndOfInput();
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case '"', '\\' -> s.append((char) e);
                    case 'u' -> s.append(unicode());
                    default -> throw malformed("bad escape '\\" + (char) e + "' in a string");
                }
            } else {
                s.append((char) c);
            }
        }
    }

    private String shared(StringBuilder s) {
        if (s.length() > 64) {
            return s.toString();
        }
        for (String r : recentStrings) {
            if (r != null && r.contentEquals(s)) {
                return r;
            }
        }
        String r = s.toString();
        recentStrings[nextRecent] = r;
        nextRecent = (nextRecent + 1) % recentStrings.length;
        return r;
    }

    private char unicode() throws IOException, HistoryFormatException, EndOfInput {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int c = next();
            if (c == EOF) {
                throw new EndOfInput();
            }
            int d = Character.digit(c, 16);
            if (d < 0) {
                throw malformed("bad \\u escape");
            }
            v = v * 16 + d;
        }
        return (char) v;
    }

    private Character character() throws IOException, HistoryFormatException, EndOfInput {
        int first = next();
        if (first == EOF) {
            throw new EndOfInput();
        }
        String rest = readToken();
        if (rest.isEmpty()) {
            return (char) first;
        }
        String name = (char) first + rest;
        switch (name) {
            case "newline": return '\n';
            case "space": return ' ';
            case "tab": return '\t';
            case "return": return '\r';
            case "formfeed": return '\f';
            case "backspace": return '\b';
            default:
                if (first == 'u' && rest.length() == 4) {
                    try {
                        return (char) Integer.parseInt(rest, 16);
                    } catch (NumberFormatException e) {
                        // reported below
                    }
                }
                return cutOrFail("unknown character \\" + name);
        }
    }

    private Keyword keyword() throws IOException, HistoryFormatException, EndOfInput {
        Keyword k = keywordInBuffer();
        if (k != null) {
            return k;
        }
        readTokenChars();
        k = cachedKeyword();
        if (k != null) {
            return k; // the common case: a keyword seen before, found without making a String
        }
        String t = token.toString();
        int slash = t.indexOf('/');
        if (t.isEmpty() || slash == 0 && t.length() > 1 || slash == t.length() - 1 && t.length() > 1) {
            return cutOrFail("bad keyword ':" + t + "'");
        }
        try {
            k = slash > 0 ? Keyword.newKeyword(t.substring(0, slash), t.substring(slash + 1)) : Keyword.newKeyword(t);
        } catch (RuntimeException e) { // edn-java refuses names EDN does not allow
            throw malformed("bad keyword ':" + t + "'");
        }
        cacheKeyword(t, k);
        return k;
    }

    /** Open-addressed keyword cache keyed by the token's characters, so a repeated keyword costs no allocation. */
    private String[] cachedNames = new String[256];
    private Keyword[] cachedKeywords = new Keyword[256];
    private int cached;

    /** The hash of {@link #token} as String.hashCode computes it, set by {@link #readTokenChars}. */
    private int tokenHash;

    private int tokenHash() {
        int h = tokenHash;
        return h ^ (h >>> 16);
    }

    /**
     * The commonest case of all (an op's keys and most of its values): a keyword seen before whose characters are
     * all in the buffer, found by comparing them where they lie, without copying them anywhere; null otherwise,
     * with nothing consumed.
     */
    private Keyword keywordInBuffer() {
        int start = pos;
        int end = len;
        char[] b = buf;
        int p = start;
        int h = 0;
        while (p < end && !endsToken(b[p])) {
            h = 31 * h + b[p];
            p++;
        }
        if (p == end) {
            return null; // the token may go on past the buffer: the general path reads it
        }
        int n = p - start;
        int mask = cachedNames.length - 1;
        for (int i = (h ^ (h >>> 16)) & mask; cachedNames[i] != null; i = (i + 1) & mask) {
            String name = cachedNames[i];
            if (name.length() == n && sameChars(name, b, start)) {
                pos = p;
                tokenAtEnd = false;
                return cachedKeywords[i];
            }
        }
        return null;
    }

    private static boolean sameChars(String name, char[] b, int start) {
        for (int j = 0; j < name.length(); j++) {
            if (name.charAt(j) != b[start + j]) {
                return false;
            }
        }
        return true;
    }

    private Keyword cachedKeyword() {
        int mask = cachedNames.length - 1;
        for (int i = tokenHash() & mask; cachedNames[i] != null; i = (i + 1) & mask) {
            if (cachedNames[i].contentEquals(token)) {
                return cachedKeywords[i];
            }
        }
        return null;
    }

    private void cacheKeyword(String name, Keyword k) {
        if (cached * 2 >= cachedNames.length) {
            if (cachedNames.length >= 1 << 16) {
                return; // a history of ever new keywords: stop caching rather than grow without bound
            }
            String[] names = cachedNames;
            Keyword[] kws = cachedKeywords;
            cachedNames = new String[names.length * 2];
            cachedKeywords = new Keyword[names.length * 2];
            cached = 0;
            for (int i = 0; i < names.length; i++) {
                if (names[i] != null) {
                    put(names[i], kws[i]);
                }
            }
        }
        put(name, k);
    }

    private void put(String name, Keyword k) {
        int mask = cachedNames.length - 1;
        int h = name.hashCode();
        int i = (h ^ (h >>> 16)) & mask;
        while (cachedNames[i] != null) {
            i = (i + 1) & mask;
        }
        cachedNames[i] = name;
        cachedKeywords[i] = k;
        cached++;
    }

    private Object atom(char first) throws IOException, HistoryFormatException, EndOfInput {
        if (first >= '0' && first <= '9') {
            // the commonest atom (times, processes, values), read where it lies in the buffer
            long v = first - '0';
            int p = pos;
            int end = Math.min(len, pos + 16);
            char[] b = buf;
            while (p < end && b[p] >= '0' && b[p] <= '9') {
                v = v * 10 + (b[p] - '0');
                p++;
            }
            if (p < len && endsToken(b[p])) { // else a longer number, a decimal, 7N...: the general path
                pos = p;
                tokenAtEnd = false;
                return v;
            }
        }
        readTokenChars();
        if (first >= '0' && first <= '9' && token.length() < 17) {
            // the common case, a small whole number: no String made
            long v = first - '0';
            int i = 0;
            for (; i < token.length(); i++) {
                char c = token.charAt(i);
                if (c < '0' || c > '9') {
                    break;
                }
                v = v * 10 + (c - '0');
            }
            if (i == token.length()) {
                return v;
            }
        }
        String t = first + token.toString();
        char c0 = t.charAt(0);
        if (Character.isDigit(c0) || (c0 == '+' || c0 == '-') && t.length() > 1 && Character.isDigit(t.charAt(1))) {
            return number(t);
        }
        switch (t) {
            case "nil": return null;
            case "true": return Boolean.TRUE;
            case "false": return Boolean.FALSE;
            default:
                int slash = t.indexOf('/');
                try {
                    return slash > 0 && slash < t.length() - 1
                            ? Symbol.newSymbol(t.substring(0, slash), t.substring(slash + 1)) : Symbol.newSymbol(t);
                } catch (RuntimeException e) { // edn-java refuses names EDN does not allow
                    throw malformed("bad symbol '" + t + "'");
                }
        }
    }

    private Object number(String t) throws HistoryFormatException, EndOfInput {
        try {
            if (t.endsWith("N")) {
                return new BigInteger(t.substring(0, t.length() - 1));
            }
            if (t.endsWith("M")) {
                return new BigDecimal(t.substring(0, t.length() - 1));
            }
            int slash = t.indexOf('/');
            if (slash > 0) {
                return new BigDecimal(t.substring(0, slash)).divide(new BigDecimal(t.substring(slash + 1)),
                        java.math.MathContext.DECIMAL64).doubleValue();
            }
            if (t.indexOf('.') >= 0 || t.indexOf('e') >= 0 || t.indexOf('E') >= 0) {
                return Double.parseDouble(t);
            }
            if (t.length() < 18) {
                return Long.parseLong(t);
            }
            BigInteger b = new BigInteger(t);
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        } catch (NumberFormatException | ArithmeticException e) {
            return cutOrFail("bad number '" + t + "'");
        }
    }
}
