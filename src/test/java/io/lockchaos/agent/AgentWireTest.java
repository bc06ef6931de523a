package io.lockchaos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.prop.Gen;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AgentWireTest {
    /** A random message of the shapes the protocol carries, nested a little. */
    private static Object value(SplittableRandom r, int depth) {
        int kind = r.nextInt(depth > 2 ? 4 : 6);
        return switch (kind) {
            case 0 -> text(r);
            case 1 -> r.nextLong();
            case 2 -> r.nextBoolean();
            case 3 -> null;
            case 4 -> {
                List<Object> l = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    l.add(value(r, depth + 1));
                }
                yield l;
            }
            default -> message(r, depth + 1);
        };
    }

    private static Map<String, Object> message(SplittableRandom r, int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(5); i > 0; i--) {
            m.put(text(r), value(r, depth));
        }
        return m;
    }

    /** Any UTF-16 text: quotes, backslashes, control characters, lone surrogates, non-ASCII. */
    private static String text(SplittableRandom r) {
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(12); i > 0; i--) {
            b.append(switch (r.nextInt(6)) {
                case 0 -> '"';
                case 1 -> '\\';
                case 2 -> (char) r.nextInt(0x20);
                case 3 -> (char) (0xD800 + r.nextInt(0x800));
                case 4 -> (char) r.nextInt(0x10000);
                default -> (char) ('a' + r.nextInt(26));
            });
        }
        return b.toString();
    }

    @Test
    void everyMessageSurvivesEncodingAndDecoding() {
        Property.forAll("agent wire round trip", Gen.seeds(), Shrinker.<Long>none()).cases(2000).seed(17).check(s -> {
            Map<String, Object> m = message(new SplittableRandom(s), 0);
            String line = AgentWire.encode(m);
            return !line.contains("\n") && AgentWire.decode(line).equals(m);
        });
    }

    @Test
    void theLineHasNoRawControlOrSurrogateCharacter() {
        String line = AgentWire.encode(Map.of("error", "a\u0001b\ud800c\n"));
        assertTrue(line.chars().noneMatch(c -> c < 0x20 || Character.isSurrogate((char) c)), line);
    }

    @Test
    void malformedLinesNameTheColumn() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentWire.decode("{\"id\":1,\"op\":}"));
        assertEquals("agent protocol: value expected at column 14", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AgentWire.decode("[1,2]"));
        assertThrows(IllegalArgumentException.class, () -> AgentWire.decode("{\"a\":1} x"));
        assertThrows(IllegalArgumentException.class, () -> AgentWire.decode("{\"a\":\"\\q\"}"));
        assertThrows(IllegalArgumentException.class, () -> AgentWire.decode("{\"a\":99999999999999999999}"));
        assertThrows(IllegalArgumentException.class, () -> AgentWire.decode("[".repeat(40)));
    }

    @Test
    void aLineReaderGivesLinesUpToItsBoundAndRefusesALongerOne() throws Exception {
        AgentWire.LineReader r = new AgentWire.LineReader(new java.io.ByteArrayInputStream(
                "{\"a\":1}\r\n\neight ch\nnine char\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)), 8);
        assertEquals("{\"a\":1}", r.readLine());
        assertEquals("", r.readLine());
        assertEquals("eight ch", r.readLine());
        assertThrows(AgentWire.LineTooLong.class, r::readLine, "one byte over");
        // a line without end, far longer than the bound: refused once the bound is passed, the rest never read
        int[] read = {0};
        java.io.InputStream endless = new java.io.InputStream() {
            @Override
            public int read() {
                read[0]++;
                return 'x';
            }
        };
        AgentWire.LineReader tooLong = new AgentWire.LineReader(endless, 100_000);
        assertThrows(AgentWire.LineTooLong.class, tooLong::readLine);
        assertTrue(read[0] <= 100_000 + 8192, read[0] + " bytes read");
    }

    @Test
    void endpointsAreTheHostsAndPortsOfAConnectString() {
        assertEquals(List.of("127.0.0.1:2181", "zk-b:2182"), AgentWire.endpoints(" 127.0.0.1:2181,ZK-B:2182/chroot"));
        assertEquals(List.of(), AgentWire.endpoints(null));
    }
}
