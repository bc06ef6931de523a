package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.Recipe;
import io.lockchaos.cli.Main;
import io.lockchaos.prop.Gen;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import io.lockchaos.sim.SmallHistories;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzes both readers with mutated histories: flipped and inserted bytes, truncation, deep nesting, huge numbers and
 * strings, invalid UTF-8, a byte-order mark, CRLF, wrong types. Every input is either read or refused with a
 * {@link HistoryFormatException} of one line that names the file; nothing else may escape (no stack trace), and
 * {@code check} on it exits 0, 1 or 2, never with a crash. Cases: -Dlockchaos.prop.cases (halved).
 */
class ReaderFuzzTest {
    @TempDir
    Path dir;

    /** A mutated history file: its bytes and whether it is EDN. */
    record Input(byte[] bytes, boolean edn, String how) {
        @Override
        public String toString() {
            String text = new String(bytes, StandardCharsets.UTF_8);
            return how + " (" + (edn ? "edn" : "jsonl") + ", " + bytes.length + " bytes): "
                    + (text.length() > 600 ? text.substring(0, 600) + "..." : text);
        }
    }

    static final byte[] PUNCTUATION = "{}[]():,\"\\#;".getBytes(StandardCharsets.UTF_8);

    static final List<Recipe> RECIPES = List.of(Recipe.MUTEX, Recipe.READ_WRITE, Recipe.MULTI, Recipe.semaphore(2));

    static String serialize(History h, boolean edn) {
        StringBuilder b = new StringBuilder();
        for (Op op : h.ops()) {
            b.append(edn ? EdnHistory.toEdn(op) : HistoryWriter.toJsonLine(op)).append('\n');
        }
        return b.toString();
    }

    static Gen<Input> inputs() {
        return r -> {
            boolean edn = r.nextBoolean();
            History h = SmallHistories.generate(RECIPES.get(r.nextInt(RECIPES.size())), 8, r).history();
            byte[] b = serialize(h, edn).getBytes(StandardCharsets.UTF_8);
            int mutations = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(3); // some files stay valid
            StringBuilder how = new StringBuilder();
            for (int m = 0; m < mutations; m++) {
                int kind = r.nextInt(10);
                how.append(kind).append(' ');
                b = mutate(b, kind, edn, r);
            }
            return new Input(b, edn, "mutations " + how.toString().trim());
        };
    }

    static byte[] mutate(byte[] b, int kind, boolean edn, SplittableRandom r) {
        int at = b.length == 0 ? 0 : r.nextInt(b.length);
        switch (kind) {
            case 0: { // flip a byte
                if (b.length > 0) {
                    b = b.clone();
                    b[at] = (byte) r.nextInt(256);
                }
                return b;
            }
            case 1: // truncate
                return Arrays.copyOf(b, at);
            case 2: // deep nesting inside a value
                return insert(b, at, (edn ? "[".repeat(5000) + "]".repeat(5000)
                        : "{\"value\":" + "[".repeat(3000) + "]".repeat(3000) + "}\n").getBytes(StandardCharsets.UTF_8));
            case 3: // invalid UTF-8
                return insert(b, at, new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF});
            case 4: // a byte-order mark and CRLF line ends
                return (new String(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, StandardCharsets.ISO_8859_1)
                        + new String(b, StandardCharsets.ISO_8859_1).replace("\n", "\r\n"))
                        .getBytes(StandardCharsets.ISO_8859_1);
            case 5: // huge numbers
                return new String(b, StandardCharsets.UTF_8).replaceFirst("\\d+", "99999999999999999999999999999")
                        .getBytes(StandardCharsets.UTF_8);
            case 6: // a long string
                return insert(b, at, ("\"" + "x".repeat(100_000) + "\"").getBytes(StandardCharsets.UTF_8));
            case 7: { // wrong types for known fields
                String s = new String(b, StandardCharsets.UTF_8);
                String[] from = edn ? new String[] {":process 0", ":type :ok", ":f :acquire"}
                        : new String[] {"\"process\":0", "\"type\":\"ok\"", "\"f\":\"acquire\""};
                String[] to = edn ? new String[] {":process [1]", ":type 3", ":f nil"}
                        : new String[] {"\"process\":[1]", "\"type\":3", "\"f\":null"};
                int i = r.nextInt(from.length);
                return s.replaceFirst(java.util.regex.Pattern.quote(from[i]), to[i]).getBytes(StandardCharsets.UTF_8);
            }
            case 8: // random punctuation
                return insert(b, at, new byte[] {PUNCTUATION[r.nextInt(PUNCTUATION.length)]});
            default: // duplicate a line
                String s = new String(b, StandardCharsets.UTF_8);
                String[] lines = s.split("\n", -1);
                int l = r.nextInt(lines.length);
                return (s + lines[l] + "\n").getBytes(StandardCharsets.UTF_8);
        }
    }

    static byte[] insert(byte[] b, int at, byte[] x) {
        byte[] out = new byte[b.length + x.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(x, 0, out, at, x.length);
        System.arraycopy(b, at, out, at + x.length, b.length - at);
        return out;
    }

    @Test
    void readersReadOrRefuseInOneLine() {
        int[] refused = {0};
        int[] read = {0};
        Property.forAll("readers never crash", inputs(), Shrinker.<Input>none())
                .casesFromSystem(2000, 0.5).seed(5150L)
                .check(in -> {
                    Path f = dir.resolve(in.edn() ? "h.edn" : "h.jsonl");
                    try {
                        Files.write(f, in.bytes());
                        History h = in.edn() ? EdnHistory.read(f) : JsonlHistoryReader.read(f);
                        read[0]++;
                        return h.size() >= 0;
                    } catch (HistoryFormatException e) {
                        refused[0]++;
                        String m = e.getMessage();
                        return m.startsWith(f.toString() + ":") && m.lines().count() == 1;
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
        assertTrue(refused[0] > 0 && read[0] > 0, "fuzzing should both refuse and read: " + refused[0] + "/" + read[0]);
    }

    @Test
    void checkExitsWithAVerdictOrTwoAndOneLine() throws Exception {
        SplittableRandom r = new SplittableRandom(77);
        Gen<Input> gen = inputs();
        PrintStream out = System.out;
        PrintStream err = System.err;
        try {
            for (int i = 0; i < 60; i++) {
                Input in = gen.generate(r);
                Path f = dir.resolve(i + (in.edn() ? ".edn" : ".jsonl"));
                Files.write(f, in.bytes());
                ByteArrayOutputStream e = new ByteArrayOutputStream();
                System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
                int code = Main.run("check", "--no-report", "--results", dir.resolve(i + ".json").toString(),
                        f.toString());
                String said = e.toString(StandardCharsets.UTF_8);
                assertTrue(code == 0 || code == 1 || code == 2, in + " exit " + code);
                assertTrue(!said.contains("\tat ") && !said.contains("internal error"), in + "\n" + said);
                if (code == 2 && !said.isBlank() && !said.contains("warning")) {
                    assertEquals(1, said.lines().filter(x -> x.startsWith("lockchaos:")).count(), said);
                }
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
