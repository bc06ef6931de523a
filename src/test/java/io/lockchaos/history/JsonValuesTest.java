package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import java.io.StringWriter;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Values reach results.json, timelines and stored histories through {@link JsonValues#write}: each JSON-shaped kind
 * is written as itself (numbers as numbers, not text), an enum as its lower-case name, anything else as its text.
 */
class JsonValuesTest {
    private static final JsonFactory JSON = new JsonFactory();

    static String write(Object v) throws Exception {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            JsonValues.write(g, v);
        }
        return out.toString();
    }

    static Object read(String text) throws Exception {
        try (JsonParser p = JSON.createParser(text)) {
            p.nextToken();
            return JsonValues.read(p);
        }
    }

    @Test
    void everyKindIsWrittenAsItself() throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("null", null);
        m.put("string", "s");
        m.put("long", 1L << 40);
        m.put("int", 7);
        m.put("short", (short) -3);
        m.put("byte", (byte) 2);
        m.put("double", 0.5);
        m.put("float", 1.5f);
        m.put("big", BigInteger.TWO.pow(70));
        m.put("true", true);
        m.put("false", false);
        m.put("list", Arrays.asList(1L, null, "x"));
        m.put("enum", OpType.INFO);
        m.put("other", Duration.ofSeconds(2));
        assertEquals("{\"null\":null,\"string\":\"s\",\"long\":1099511627776,\"int\":7,\"short\":-3,\"byte\":2,"
                + "\"double\":0.5,\"float\":1.5,\"big\":1180591620717411303424,\"true\":true,\"false\":false,"
                + "\"list\":[1,null,\"x\"],\"enum\":\"info\",\"other\":\"PT2S\"}", write(m));
    }

    @Test
    void whatIsWrittenReadsBackAsTheSameValue() throws Exception {
        List<Object> values = new ArrayList<>(Arrays.asList(null, "s", 42L, -0.25, BigInteger.TEN.pow(30), true,
                List.of(1L, List.of("a")), Map.of("k", 3L)));
        for (Object v : values) {
            Object back = read(write(v));
            assertEquals(v, back, "value " + v);
        }
    }
}
