package io.lockchaos.proxy;

import java.util.Map;
import java.util.Objects;

/**
 * One toxic as configured through the API.
 *
 * @param id identifies the toxic across updates, so per-connection state (toxicity decision, bytes counted by
 *     limit_data) survives a change of attributes
 * @param name unique within its proxy
 * @param type what the toxic does
 * @param stream the direction it acts on
 * @param toxicity the probability, decided once per connection, that the toxic applies to that connection
 * @param attributes every attribute of {@code type}, unmodifiable
 */
record Toxic(long id, String name, ToxicType type, Direction stream, double toxicity, Map<String, Long> attributes) {
    Toxic {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(stream, "stream");
        if (!(toxicity >= 0 && toxicity <= 1)) {
            throw ApiException.badRequest("toxicity must be between 0 and 1, got: " + toxicity);
        }
        attributes = Map.copyOf(type.attributes(Map.of(), attributes));
    }

    /** Returns an attribute; 0 when unset. */
    long attribute(String attributeName) {
        return attributes.getOrDefault(attributeName, 0L);
    }

    Toxic withId(long newId) {
        return new Toxic(newId, name, type, stream, toxicity, attributes);
    }

    /** Returns this toxic with {@code changes} merged into its attributes and, when non-null, a new toxicity. */
    Toxic updated(Double newToxicity, Map<String, Long> changes) {
        return new Toxic(id, name, type, stream, newToxicity == null ? toxicity : newToxicity,
                type.attributes(attributes, changes));
    }
}
