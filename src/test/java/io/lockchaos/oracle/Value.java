package io.lockchaos.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * An EDN value as Clojure's {@code =} sees it, for the Knossos oracle: vectors and lists are one kind of sequence,
 * sets and maps compare by their members, integers by value, and keywords, symbols and strings are three kinds. Each
 * prints itself as EDN in one of its equal spellings, chosen at random (vector or list, any member order, N or not),
 * so the reader is tested on every spelling of the same value.
 */
sealed interface Value {
    Value NIL = new Nil();

    /** EDN text for this value, one of its equal spellings. */
    String print(SplittableRandom r);

    record Nil() implements Value {
        public String print(SplittableRandom r) {
            return "nil";
        }
    }

    record Int(long n) implements Value {
        public String print(SplittableRandom r) {
            return n + (r.nextInt(4) == 0 ? "N" : "");
        }
    }

    record Str(String s) implements Value {
        public String print(SplittableRandom r) {
            return '"' + s + '"';
        }
    }

    record Kw(String name) implements Value {
        public String print(SplittableRandom r) {
            return ":" + name;
        }
    }

    record Sym(String name) implements Value {
        public String print(SplittableRandom r) {
            return name;
        }
    }

    /** A vector or list: equal with the same items in the same order, whichever it is. */
    record Seq(List<Value> items) implements Value {
        public String print(SplittableRandom r) {
            boolean vector = r.nextBoolean();
            StringBuilder b = new StringBuilder(vector ? "[" : "(");
            for (int i = 0; i < items.size(); i++) {
                b.append(i == 0 ? "" : " ").append(items.get(i).print(r));
            }
            return b.append(vector ? "]" : ")").toString();
        }
    }

    record SetV(Set<Value> members) implements Value {
        public String print(SplittableRandom r) {
            List<Value> order = shuffled(new ArrayList<>(members), r);
            StringBuilder b = new StringBuilder("#{");
            for (int i = 0; i < order.size(); i++) {
                b.append(i == 0 ? "" : " ").append(order.get(i).print(r));
            }
            return b.append("}").toString();
        }
    }

    record MapV(Map<Value, Value> entries) implements Value {
        public String print(SplittableRandom r) {
            List<Value> keys = shuffled(new ArrayList<>(entries.keySet()), r);
            StringBuilder b = new StringBuilder("{");
            for (int i = 0; i < keys.size(); i++) {
                b.append(i == 0 ? "" : ", ").append(keys.get(i).print(r)).append(' ')
                        .append(entries.get(keys.get(i)).print(r));
            }
            return b.append("}").toString();
        }
    }

    private static List<Value> shuffled(List<Value> l, SplittableRandom r) {
        for (int i = l.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            Value t = l.get(i);
            l.set(i, l.get(j));
            l.set(j, t);
        }
        return l;
    }

    /**
     * A small value from a pool where equal-looking values of different kinds are common ({@code 1}, {@code "a"},
     * {@code :a}, {@code a}, {@code [1 2]}, {@code #{1 2}}, {@code {:a 1}}, {@code {"a" 1}}), so that reads often
     * meet a value equal in Clojure and often one that only looks alike.
     */
    static Value random(SplittableRandom r, int depth) {
        int k = r.nextInt(depth <= 0 ? 5 : 9);
        switch (k) {
            case 0: return new Int(r.nextInt(3));
            case 1: return new Str(name(r));
            case 2: return new Kw(name(r));
            case 3: return new Sym(name(r));
            case 4: return new Int(r.nextInt(3));
            case 5: {
                List<Value> items = new ArrayList<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    items.add(random(r, depth - 1));
                }
                return new Seq(List.copyOf(items));
            }
            case 6: {
                Set<Value> m = new java.util.LinkedHashSet<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    m.add(random(r, depth - 1));
                }
                return new SetV(Set.copyOf(m));
            }
            default: {
                Map<Value, Value> m = new java.util.LinkedHashMap<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    Value key = r.nextBoolean() ? new Kw(name(r)) : random(r, 0);
                    m.put(key, random(r, depth - 1));
                }
                return new MapV(Map.copyOf(m));
            }
        }
    }

    private static String name(SplittableRandom r) {
        return r.nextBoolean() ? "a" : "b";
    }
}
