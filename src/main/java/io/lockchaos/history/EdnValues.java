package io.lockchaos.history;

import java.util.Iterator;
import java.util.Map;

/**
 * The EDN values that JSON has no form for, kept apart so that they compare as Clojure's {@code =} compares them
 * (Knossos' models use it): a keyword, a symbol and a string of the same text are three different values, a map
 * whose keys are not all keywords is not equal to the map of the same key text, and a set (a {@link java.util.Set})
 * is unordered and never equal to a vector. Vectors and lists are both {@link java.util.List}s and equal with the same
 * elements, as in Clojure; integers of any width are {@code Long} where they fit.
 */
public final class EdnValues {
    private EdnValues() {
    }

    /** {@code :name} or {@code :ns/name}. */
    public record Keyword(String name) {
        @Override
        public String toString() {
            return ":" + name;
        }
    }

    /** A symbol: {@code name} or {@code ns/name}. */
    public record Symbol(String name) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * A map with at least one key that is not a keyword. A map whose keys are all keywords is an ordinary string-keyed
     * map (so op fields read by name work); one map value never has both forms, so equality stays exact.
     */
    public record KeyedMap(Map<Object, Object> entries) {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("{");
            for (Iterator<Map.Entry<Object, Object>> it = entries.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Object, Object> e = it.next();
                b.append(print(e.getKey())).append(' ').append(print(e.getValue()));
                if (it.hasNext()) {
                    b.append(", ");
                }
            }
            return b.append('}').toString();
        }
    }

    /** The text a name-like value stands for: a string itself, a keyword's or symbol's name; else null. */
    public static String nameOf(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Keyword k) {
            return k.name();
        }
        return v instanceof Symbol s ? s.name() : null;
    }

    /** A short EDN-like rendering for reports: strings quoted, keywords with their colon. */
    static String print(Object v) {
        return v instanceof String s ? '"' + s + '"' : String.valueOf(v);
    }
}
