package io.lockchaos.history;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Converts between Jackson streams and the plain JSON-shaped values ops carry (no Jackson types leak into ops). */
public final class JsonValues {
    private JsonValues() {
    }

    /** Reads the value at the parser's current token, leaving the parser on its last token. */
    public static Object read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case VALUE_NULL: return null;
            case VALUE_TRUE: return Boolean.TRUE;
            case VALUE_FALSE: return Boolean.FALSE;
            case VALUE_STRING: return p.getText();
            case VALUE_NUMBER_INT:
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : p.getLongValue();
            case VALUE_NUMBER_FLOAT: return p.getDoubleValue();
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(read(p));
                }
                return list;
            }
            case START_OBJECT: {
                SmallMap.Builder<String> map = new SmallMap.Builder<>();
                while (p.nextToken() != JsonToken.END_OBJECT) {
                    String name = p.currentName();
                    p.nextToken();
                    map.put(name, read(p));
                }
                return map.build();
            }
            default:
                throw new IOException("unexpected token " + t);
        }
    }

    /** Writes a JSON-shaped value; anything else is written as its string form. */
    public static void write(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
            g.writeNumber(((Number) v).doubleValue());
        } else if (v instanceof java.math.BigInteger b) {
            g.writeNumber(b);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof Iterable<?> it) {
            g.writeStartArray();
            for (Object o : it) {
                write(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof Enum<?> e) {
            g.writeString(e.name().toLowerCase(java.util.Locale.ROOT));
        } else {
            g.writeString(v.toString());
        }
    }
}
