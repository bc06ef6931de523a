package io.lockchaos.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The JSON shapes of the Toxiproxy v2 API, as toxiproxy-java sends and parses them. */
final class ApiJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ApiJson() {
    }

    /** Parses a request body; an empty body is an empty object (toxiproxy-java's reset sends none). */
    static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return MAPPER.createObjectNode();
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (IOException e) {
            throw ApiException.badRequest("bad request body: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("bad request body: expected a JSON object");
        }
        return node;
    }

    /** Returns a string field, or null when it is absent or JSON null. */
    static String text(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return n.asText();
    }

    /** Returns a boolean field, or {@code dflt} when it is absent or JSON null. */
    static boolean bool(JsonNode body, String field, boolean dflt) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isBoolean()) {
            throw ApiException.badRequest(field + " must be true or false");
        }
        return n.asBoolean();
    }

    /** Builds a new toxic (id 0, assigned by the proxy) from a create request, with Toxiproxy's defaults. */
    static Toxic newToxic(JsonNode body) {
        String typeName = text(body, "type");
        if (typeName == null) {
            throw ApiException.badRequest("missing required field: type");
        }
        ToxicType type = ToxicType.fromWire(typeName);
        Direction stream = Direction.fromWire(text(body, "stream"));
        String name = text(body, "name");
        if (name == null || name.isEmpty()) {
            name = type.wireName() + "_" + stream.wireName();
        }
        Double toxicity = toxicity(body);
        return new Toxic(0, name, type, stream, toxicity == null ? 1.0 : toxicity, attributes(body));
    }

    /** Applies an update request: attributes are merged, toxicity replaced if given; name, type, stream stay. */
    static Toxic updatedToxic(Toxic old, JsonNode body) {
        return old.updated(toxicity(body), attributes(body));
    }

    private static Double toxicity(JsonNode body) {
        JsonNode n = body.get("toxicity");
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isNumber()) {
            throw ApiException.badRequest("toxicity must be a number between 0 and 1");
        }
        return n.asDouble();
    }

    private static Map<String, Long> attributes(JsonNode body) {
        JsonNode attrs = body.get("attributes");
        Map<String, Long> out = new HashMap<>();
        if (attrs == null || attrs.isNull()) {
            return out;
        }
        if (!attrs.isObject()) {
            throw ApiException.badRequest("attributes must be an object");
        }
        for (Map.Entry<String, JsonNode> e : attrs.properties()) {
            JsonNode v = e.getValue();
            if (!v.isNumber() || v.asDouble() != Math.rint(v.asDouble())) {
                throw ApiException.badRequest("attribute " + e.getKey() + " must be a whole number");
            }
            out.put(e.getKey(), v.asLong());
        }
        return out;
    }

    static ObjectNode proxy(ProxySnapshot p) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", p.name());
        n.put("listen", p.listen().toString());
        n.put("upstream", p.upstream().toString());
        n.put("enabled", p.enabled());
        n.set("toxics", toxics(p.toxics()));
        return n;
    }

    /** The body of GET /proxies: an object from name to proxy. */
    static ObjectNode proxies(List<ProxySnapshot> all) {
        ObjectNode n = MAPPER.createObjectNode();
        all.forEach(p -> n.set(p.name(), proxy(p)));
        return n;
    }

    static ArrayNode toxics(List<Toxic> toxics) {
        ArrayNode a = MAPPER.createArrayNode();
        toxics.forEach(t -> a.add(toxic(t)));
        return a;
    }

    static ObjectNode toxic(Toxic t) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", t.name());
        n.put("type", t.type().wireName());
        n.put("stream", t.stream().wireName());
        n.put("toxicity", t.toxicity());
        ObjectNode attrs = n.putObject("attributes");
        t.type().attributes(t.attributes(), Map.of()).forEach(attrs::put);
        return n;
    }

    static ObjectNode error(int status, String message) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("error", message);
        n.put("status", status);
        return n;
    }

    static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain nodes always serialises", e);
        }
    }
}
