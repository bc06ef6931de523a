package io.lockchaos.history;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import us.bpsm.edn.Keyword;
import us.bpsm.edn.Symbol;
import us.bpsm.edn.TaggedValue;
import us.bpsm.edn.printer.Printers;

/**
 * Jepsen's EDN history: the maps Jepsen writes to {@code history.edn}, one per line ({@code :type :f :process :time
 * :value :index :error}), or one vector of such maps (Knossos' test data). Values keep what Clojure's {@code =} tells
 * apart ({@link EdnValues}: keywords, symbols, sets, maps with other keys), vectors and lists become lists, and a
 * record literal such as {@code #jepsen.history.Op{...}} is read as its map. A nemesis
 * function lockchaos has no name for becomes {@link Fn#FAULT} with the original name kept in the value, and is written
 * back under that name; a client function without a name is an error. Jepsen writes both halves of a nemesis op as
 * {@code :info}: the first of each pair is read as the invocation, and nemesis ops are written back as {@code :info}.
 */
public final class EdnHistory {
    private static final Keyword NEMESIS = Keyword.newKeyword("nemesis");
    /** The real type of a nemesis completion, which Jepsen's convention writes as :info. */
    private static final Keyword OUTCOME = Keyword.newKeyword("lockchaos", "outcome");

    private EdnHistory() {
    }

    /**
     * Reads a history file, streaming: the file is never held as one string. A large file of one op per line is cut at
     * line ends into a piece per core, parsed at once; the pieces are trusted only when every one parses cleanly, so
     * anything wrong is found and worded by one sequential reading, as for a small file.
     */
    public static History read(Path file) throws HistoryFormatException, IOException {
        long size = Files.size(file);
        return read(file, FilePieces.pieceCount(size));
    }

    /** Reads {@code file} in {@code pieces} pieces at once (1: sequentially); the tests choose the number. */
    static History read(Path file, int pieces) throws HistoryFormatException, IOException {
        if (pieces > 1 && !startsWithVector(file)) {
            List<FilePieces.Range> ranges = FilePieces.split(file, pieces);
            List<Piece> read = FilePieces.parse(ranges, r -> readPiece(file, r));
            if (read != null) {
                Builder b = new Builder(file.toString(), false);
                List<String> warnings = new ArrayList<>();
                long lineBase = 0;
                for (Piece piece : read) {
                    for (int i = 0; i < piece.ops().size(); i++) {
                        b.addOp(piece.ops().get(i), piece.lines()[i] + lineBase);
                    }
                    for (Cut c : piece.cuts()) {
                        warnings.add(file + ":" + (c.line() + lineBase) + ": " + c.what());
                    }
                    lineBase += piece.newlines();
                }
                return b.build(warnings);
            }
        }
        try (java.io.Reader r = new java.io.InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8)) {
            return read(file.toString(), r);
        }
    }

    /**
     * Whether the first thing in the file is a vector (Knossos' form), which cannot be cut into lines. Only speed
     * depends on it: a vector's pieces never all parse cleanly and pieces of lines read what one reading does, so a
     * wrong answer costs a wasted attempt and reads the same history; mutation testing leaves it out.
     */
    private static boolean startsWithVector(Path file) throws IOException {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(4096);
            for (byte c : head) {
                if (c == '[') {
                    return true;
                }
                if (!(c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ',' || (c & 0xff) >= 0x80)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The ops of one piece, as written (nemesis halves not yet paired), with piece-relative lines. */
    private record Piece(List<Op> ops, long[] lines, List<Cut> cuts, long newlines) {
    }

    /** A value cut short by the end of the input on its own line, forgiven on the file's last line. */
    private record Cut(long line, String what) {
    }

    private static Piece readPiece(Path file, FilePieces.Range r) throws HistoryFormatException, IOException {
        String source = file.toString();
        try (java.io.Reader reader = new java.io.InputStreamReader(FilePieces.open(file, r), StandardCharsets.UTF_8)) {
            EdnReader in = new EdnReader(source, new java.io.BufferedReader(reader, 1 << 16));
            Builder b = new Builder(source, true);
            List<Cut> cuts = new ArrayList<>();
            readLines(in, source, b, r.last(), cuts);
            return new Piece(b.ops, b.lines, cuts, in.line() - 1);
        }
    }

    public static History read(String source, String text) throws HistoryFormatException {
        try {
            return read(source, new java.io.StringReader(text));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a string cannot fail to be read
        }
    }

    /**
     * Reads Jepsen's forms of a history: one op map per line (what Jepsen's store writes), or one vector of op maps.
     * A value cut short by the end of the file on its own last line is a crash while writing: it is dropped with a
     * warning. Anything else malformed is refused with the line it is on.
     */
    static History read(String source, java.io.Reader reader) throws HistoryFormatException, IOException {
        EdnReader in = new EdnReader(source, new java.io.BufferedReader(reader, 1 << 16));
        Builder b = new Builder(source, false);
        List<Cut> cuts = new ArrayList<>();
        try {
            in.skipSpace(true);
            if (in.peek() == '[') {
                in.next();
                while (true) {
                    in.skipSpace(true);
                    if (in.peek() == ']') {
                        in.next();
                        break;
                    }
                    long line = in.line();
                    Object v = in.value(1);
                    if (v != EdnReader.DISCARDED) {
                        b.add(v, line);
                    }
                }
                in.skipSpace(true);
                if (in.peek() != -1) {
                    throw new HistoryFormatException(source, in.line(), "line: more than one value after the"
                            + " vector of ops");
                }
            } else {
                readLines(in, source, b, true, cuts);
            }
        } catch (EdnReader.EndOfInput e) {
            throw new HistoryFormatException(source, in.line(), "line: malformed EDN (end of input)");
        }
        List<String> warnings = new ArrayList<>();
        for (Cut c : cuts) {
            warnings.add(source + ":" + c.line() + ": " + c.what());
        }
        return b.build(warnings);
    }

    /** Reads op maps one per line to the end; only the {@code last} piece of a file may end in a cut value. */
    private static void readLines(EdnReader in, String source, Builder b, boolean last, List<Cut> cuts)
            throws HistoryFormatException, IOException {
        while (true) {
            in.skipSpace(true);
            if (in.peek() == -1) {
                break;
            }
            long line = in.line();
            Object v = valueOrCut(in, source, line, last, cuts, "truncated last line dropped");
            if (v == CUT) {
                break;
            }
            // the rest of the line may hold #_ discards, before or after the op, but no second value
            in.skipSpace(false);
            while (in.peek() != '\n' && in.peek() != -1) {
                Object w = valueOrCut(in, source, line, last, cuts,
                        "truncated form after the op on the last line dropped");
                if (w == CUT) {
                    w = EdnReader.DISCARDED;
                }
                if (w != EdnReader.DISCARDED) {
                    if (v != EdnReader.DISCARDED) {
                        throw new HistoryFormatException(source, line, "line: more than one value on the"
                                + " line");
                    }
                    v = w;
                }
                in.skipSpace(false);
            }
            if (v != EdnReader.DISCARDED) {
                b.add(v, line);
            }
        }
    }

    /**
     * The next value, which starts on line {@code line}; {@link #CUT} when the input ends inside it on that same line (a
     * crash cut the last line short: forgiven, with the warning {@code dropped}). Ending inside a value that began on
     * an earlier line, or anywhere but at the end of the file, is malformed.
     */
    private static Object valueOrCut(EdnReader in, String source, long line, boolean last, List<Cut> cuts,
            String dropped) throws HistoryFormatException, IOException {
        try {
            return in.value(0);
        } catch (EdnReader.EndOfInput e) {
            if (!last || in.line() != line) {
                throw new HistoryFormatException(source, line, "line: malformed EDN (end of input)");
            }
            cuts.add(new Cut(line, dropped));
            return CUT;
        }
    }

    /** What {@link #valueOrCut} gives for a value cut short (not null: {@code nil} is a value). */
    private static final Object CUT = new Object();

    /** Turns values into ops as they are read, so only the ops are kept. */
    private static final class Builder {
        private final String source;
        /** A piece's ops are kept as written: pairing nemesis halves needs the ops before the piece. */
        private final boolean raw;
        private final List<Op> ops = new ArrayList<>();
        private long[] lines = new long[1024];
        private boolean anyTime;
        private boolean anyUntimed;
        private boolean nemesisOpen;
        /** Process numbers past Java's int range, and the numbers they are shown as (counting down from the top). */
        private final Map<Long, Integer> wideProcesses = new LinkedHashMap<>();
        /** The other way round: which wide number each renumbered one stands for. */
        private final Map<Integer, Long> shownAs = new java.util.HashMap<>();
        /** The highest process number in range seen so far: renumbering must stay above it. */
        private int highest = -1;
        private final List<String> notes = new ArrayList<>();

        Builder(String source, boolean raw) {
            this.source = source;
            this.raw = raw;
        }

        void add(Object value, long line) throws HistoryFormatException {
            addOp(toOp(source, line, value, raw ? null : this::processNumber), line);
        }

        /**
         * The int a process number is known by. Jepsen gives a crashed process's successor a new number, so a long
         * test's numbers can pass 2^31-1; those are shown as numbers counted down from 2^31-1 (verdicts depend only
         * on which ops share a process), each mapping said once in a warning.
         */
        int processNumber(long p, long line) throws HistoryFormatException {
            if (p >= 0 && p <= Integer.MAX_VALUE) {
                Long wide = shownAs.isEmpty() ? null : shownAs.get((int) p);
                if (wide != null) {
                    throw new HistoryFormatException(source, line, "process: " + p + " is taken by process " + wide
                            + ", shown so");
                }
                highest = Math.max(highest, (int) p);
                return (int) p;
            }
            Integer mapped = wideProcesses.get(p);
            if (mapped == null) {
                mapped = Integer.MAX_VALUE - wideProcesses.size();
                if (mapped <= highest) {
                    throw new HistoryFormatException(source, line, "process: " + p + " is outside 0..2147483647 and"
                            + " process " + mapped + " is taken, so it cannot be renumbered");
                }
                wideProcesses.put(p, mapped);
                shownAs.put(mapped, p);
                if (wideProcesses.size() <= 5) {
                    notes.add(source + ":" + line + ": process " + p + " is outside 0..2147483647; shown as process "
                            + mapped);
                }
            }
            return mapped;
        }

        void addOp(Op op, long line) throws HistoryFormatException {
            int i = ops.size();
            if (op.isNemesis() && op.f().unpaired()) {
                // a runner's stall is one :info line, not a pair: it neither opens nor closes a nemesis op
                if (op.type() == OpType.INFO) {
                    op = new Op(op.index(), op.time(), OpType.OK, op.process(), op.f(), op.key(), op.value(),
                            op.error());
                }
            } else if (op.isNemesis() && !raw) {
                // Jepsen writes both halves of a nemesis op as :info; the first of a pair is the invocation.
                if (op.type() == OpType.INFO && !nemesisOpen) {
                    op = new Op(op.index(), op.time(), OpType.INVOKE, op.process(), op.f(), op.key(), op.value(),
                            op.error());
                }
                nemesisOpen = op.type() == OpType.INVOKE;
            }
            anyTime |= op.time() != NO_TIME;
            anyUntimed |= op.time() == NO_TIME;
            ops.add(op);
            if (i == lines.length) {
                lines = java.util.Arrays.copyOf(lines, lines.length * 2);
            }
            lines[i] = line;
        }

        History build(List<String> warnings) throws HistoryFormatException {
            List<String> all = new ArrayList<>(notes);
            if (wideProcesses.size() > 5) {
                all.add(source + ": " + wideProcesses.size() + " process numbers are outside 0..2147483647 and shown"
                        + " counted down from 2147483647");
            }
            fillTimes(all);
            all.addAll(warnings);
            return History.build(source, ops, java.util.Arrays.copyOf(lines, ops.size()), all);
        }

        /**
         * Gives every op a time. A history without any is timed by position (older Jepsen and Knossos files). In one
         * where only some ops have a time, each op without one takes the time of the op before it (the first ops that
         * of the first timed op): the order is the file's either way, and only durations touching those ops are
         * unknown, which one warning says.
         */
        private void fillTimes(List<String> warnings) {
            if (!anyUntimed) {
                return;
            }
            if (!anyTime) {
                for (int i = 0; i < ops.size(); i++) {
                    ops.set(i, ops.get(i).withTime(i));
                }
                return;
            }
            long last = NO_TIME;
            for (Op op : ops) {
                if (op.time() != NO_TIME) {
                    last = op.time();
                    break;
                }
            }
            int missing = 0;
            long firstLine = -1;
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                if (op.time() == NO_TIME) {
                    missing++;
                    firstLine = firstLine < 0 ? lines[i] : firstLine;
                    ops.set(i, op.withTime(last));
                } else {
                    last = op.time();
                }
            }
            warnings.add(source + ":" + firstLine + ": time: missing on " + missing + " of " + ops.size() + " ops;"
                    + " ordering by position, durations that start or end at those ops are unknown (each is given the"
                    + " time of the op before it)");
        }
    }

    /** Deeper nesting than any op needs is refused while parsing: deeper would risk the stack. */
    static final int MAX_DEPTH = 200;

    /** Numbers a process number outside Java's int range, or refuses it (null: a piece, re-read whole). */
    @FunctionalInterface
    private interface ProcessNumbers {
        int of(long process, long line) throws HistoryFormatException;
    }

    /** The time of an op that has none, until {@link Builder#build} gives it one. */
    private static final long NO_TIME = Long.MIN_VALUE;

    private static Op toOp(String source, long line, Object raw, ProcessNumbers numbers)
            throws HistoryFormatException {
        if (raw instanceof TaggedValue tv) {
            raw = tv.getValue();
        }
        if (!(raw instanceof Map<?, ?> m)) {
            throw new HistoryFormatException(source, line, "line: expected an op map");
        }
        Object typeRaw = get(m, "type");
        if (m.get(OUTCOME) instanceof Keyword o && OpType.parse(o.getName()) != null) {
            typeRaw = o;
        }
        OpType type = typeRaw instanceof Keyword k ? OpType.parse(k.getName()) : null;
        if (type == null) {
            throw new HistoryFormatException(source, line, "type: " + (typeRaw == null ? "missing"
                    : "unknown type " + Printers.printString(typeRaw)));
        }
        Object procRaw = get(m, "process");
        int process;
        if (NEMESIS.equals(procRaw)) {
            process = Op.NEMESIS;
        } else if (procRaw instanceof Long l && l >= 0 && l <= Integer.MAX_VALUE && numbers == null) {
            process = (int) (long) l;
        } else if (procRaw instanceof Long l && numbers != null) {
            process = numbers.of(l, line);
        } else if (procRaw instanceof Long l) {
            // a piece read in parallel cannot number it consistently: the whole file is then read in one pass
            throw new HistoryFormatException(source, line, "process: outside 0..2147483647 in a piece, got " + l);
        } else {
            throw new HistoryFormatException(source, line, "process: " + (procRaw == null ? "missing"
                    : "expected a whole number or :nemesis, got " + Printers.printString(procRaw)));
        }
        Object fRaw = get(m, "f");
        String fName = null;
        if (fRaw instanceof Keyword k) {
            fName = k.getName();
        } else if (fRaw instanceof Symbol s) {
            fName = s.getName();
        } else if (fRaw instanceof String s) {
            fName = s;
        }
        if (fName == null) {
            throw new HistoryFormatException(source, line, "f: missing");
        }
        Fn f = Fn.parse(fName);
        Object value = plain(get(m, "value"));
        if (f == null || f == Fn.FAULT && process != Op.NEMESIS) {
            if (process != Op.NEMESIS) {
                throw new HistoryFormatException(source, line, "f: unknown client f :" + fName);
            }
            Map<String, Object> wrapped = new LinkedHashMap<>();
            wrapped.put("f", fName);
            wrapped.put("value", value);
            value = wrapped;
            f = Fn.FAULT;
        }
        Object timeRaw = get(m, "time");
        long time;
        if (timeRaw == null) {
            time = NO_TIME;
        } else if (timeRaw instanceof Long t) {
            time = t == NO_TIME ? t + 1 : t; // Jepsen's times may be negative (a clock read before the test began)
        } else {
            throw new HistoryFormatException(source, line, "time: expected a whole number of nanoseconds, got "
                    + Printers.printString(timeRaw));
        }
        long index = wholeOrAbsent(source, line, "index", get(m, "index"));
        Object keyRaw = plain(get(m, "key"));
        if (EdnValues.nameOf(keyRaw) != null) {
            keyRaw = EdnValues.nameOf(keyRaw); // a lock's or register's name: :x and "x" name the same one
        }
        Object errRaw = get(m, "error");
        String error = errRaw == null ? null : errRaw instanceof String s ? s
                : errRaw instanceof Keyword k ? k.getName() : Printers.printString(errRaw);
        return new Op(index, time, type, process, f, keyRaw == null ? null : keyRaw.toString(), value, error);
    }

    private static long wholeOrAbsent(String source, long line, String field, Object v) throws HistoryFormatException {
        if (v == null) {
            return -1;
        }
        if (v instanceof Long l && l >= 0) {
            return l;
        }
        throw new HistoryFormatException(source, line, field + ": expected a non-negative whole number, got "
                + Printers.printString(v));
    }

    /** The op fields' keywords, made once: Keyword.newKeyword interns through a shared map, per call. */
    private static final Keyword TYPE = Keyword.newKeyword("type");
    private static final Keyword PROCESS = Keyword.newKeyword("process");
    private static final Keyword F = Keyword.newKeyword("f");
    private static final Keyword VALUE = Keyword.newKeyword("value");
    private static final Keyword TIME = Keyword.newKeyword("time");
    private static final Keyword INDEX = Keyword.newKeyword("index");
    private static final Keyword KEY = Keyword.newKeyword("key");
    private static final Keyword ERROR = Keyword.newKeyword("error");

    private static Object get(Map<?, ?> m, String name) {
        Keyword k = switch (name) {
            case "type" -> TYPE;
            case "process" -> PROCESS;
            case "f" -> F;
            case "value" -> VALUE;
            case "time" -> TIME;
            case "index" -> INDEX;
            case "key" -> KEY;
            case "error" -> ERROR;
            default -> Keyword.newKeyword(name);
        };
        return m.get(k);
    }

    /**
     * Converts parsed EDN into the values ops carry: JSON-shaped where JSON has the form, {@link EdnValues} where it
     * has not, so that values compare as Clojure compares them.
     */
    static Object plain(Object v) {
        if (v == null || v instanceof String || v instanceof Long || v instanceof Double || v instanceof Boolean
                || v instanceof Character) {
            return v;
        }
        if (v instanceof Keyword k) {
            return new EdnValues.Keyword(keywordName(k));
        }
        if (v instanceof Symbol s) {
            return new EdnValues.Symbol(s.toString());
        }
        if (v instanceof java.math.BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof TaggedValue tv) {
            return plain(tv.getValue());
        }
        if (v instanceof Map<?, ?> m) {
            boolean keywords = true;
            for (Object k : m.keySet()) {
                keywords &= k instanceof Keyword;
            }
            if (keywords) {
                SmallMap.Builder<String> out = new SmallMap.Builder<>();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    out.put(keywordName((Keyword) e.getKey()), plain(e.getValue()));
                }
                return out.build();
            }
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(plain(e.getKey()), plain(e.getValue()));
            }
            return new EdnValues.KeyedMap(java.util.Collections.unmodifiableMap(out));
        }
        if (v instanceof java.util.Set<?> set) {
            java.util.Set<Object> out = new java.util.LinkedHashSet<>();
            for (Object o : set) {
                out.add(plain(o));
            }
            return java.util.Collections.unmodifiableSet(out);
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>(c.size());
            for (Object o : c) {
                out.add(plain(o));
            }
            return out;
        }
        return v.toString();
    }

    private static String keywordName(Keyword k) {
        return k.getPrefix() == null || k.getPrefix().isEmpty() ? k.getName() : k.getPrefix() + "/" + k.getName();
    }

    /** Writes a history as Jepsen EDN, one op map per line. */
    public static void write(Path file, History h) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Op op : h.ops()) {
                w.write(toEdn(op));
                w.write('\n');
            }
        }
    }

    /**
     * One op as Jepsen's lock workload writes it (its etcd test's {@code lock}): {@code :type :f :value :time :process}
     * and {@code :index}, the value nil, no key (one lock per history), a release that found the lock gone failing with
     * {@code :error :not-held}; the faults as {@link #toEdn} writes them. Null for an op that workload has no place for
     * (the protected set's adds and reads, connection states, fenced writes, the run's phases and stalls).
     */
    public static String toJepsenLock(Op op) {
        if (op.isNemesis()) {
            // the run's own bookkeeping (its phases and stalls, the final quiesce and inspection) is no fault of
            // Jepsen's
            return op.f() == Fn.PHASE || op.f() == Fn.QUIESCE || op.f() == Fn.INSPECT || op.f() == Fn.STALL ? null
                    : toEdn(op);
        }
        if (op.f() != Fn.ACQUIRE && op.f() != Fn.RELEASE) {
            return null;
        }
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(kw("type"), kw(op.type().wireName()));
        m.put(kw("f"), kw(op.f().wireName()));
        m.put(kw("value"), null);
        m.put(kw("time"), op.time());
        m.put(kw("process"), (long) op.process());
        m.put(kw("index"), op.index());
        if (op.error() != null) {
            m.put(kw("error"), op.error().equals("not-held") ? kw("not-held") : op.error());
        }
        return Printers.printString(m);
    }

    /** Returns one op as an EDN map. */
    public static String toEdn(Op op) {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(kw("index"), op.index());
        m.put(kw("time"), op.time());
        // Jepsen's nemesis ops are :info at both invocation and completion; what a completion really said (an expiry
        // that completed ok is certain, one that ended info is not) rides along under a key of our own.
        m.put(kw("type"), kw(op.isNemesis() ? "info" : op.type().wireName()));
        if (op.isNemesis() && (op.type() == OpType.OK || op.type() == OpType.FAIL)) {
            m.put(OUTCOME, kw(op.type().wireName()));
        }
        m.put(kw("process"), op.isNemesis() ? NEMESIS : (Object) (long) op.process());
        Object value = op.value();
        String f = op.f().wireName();
        if (op.f() == Fn.FAULT && value instanceof Map<?, ?> vm && vm.get("f") instanceof String orig) {
            f = orig;
            value = vm.get("value");
        }
        m.put(kw("f"), kw(f));
        if (op.key() != null) {
            m.put(kw("key"), op.key());
        }
        m.put(kw("value"), edn(value));
        if (op.error() != null) {
            m.put(kw("error"), op.error());
        }
        return Printers.printString(m);
    }

    private static Keyword kw(String s) {
        return Keyword.newKeyword(s);
    }

    private static Object edn(Object v) {
        if (v instanceof EdnValues.Keyword k) {
            int slash = k.name().indexOf('/');
            return slash > 0 ? Keyword.newKeyword(k.name().substring(0, slash), k.name().substring(slash + 1))
                    : kw(k.name());
        }
        if (v instanceof EdnValues.Symbol s) {
            int slash = s.name().indexOf('/');
            return slash > 0 ? Symbol.newSymbol(s.name().substring(0, slash), s.name().substring(slash + 1))
                    : Symbol.newSymbol(s.name());
        }
        if (v instanceof EdnValues.KeyedMap km) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<Object, Object> e : km.entries().entrySet()) {
                out.put(edn(e.getKey()), edn(e.getValue()));
            }
            return out;
        }
        if (v instanceof java.util.Set<?> set) {
            java.util.Set<Object> out = new java.util.LinkedHashSet<>();
            for (Object o : set) {
                out.add(edn(o));
            }
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(kw(String.valueOf(e.getKey())), edn(e.getValue()));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) {
                out.add(edn(o));
            }
            return out;
        }
        if (v instanceof Integer i) {
            return (long) i;
        }
        return v;
    }
}
