package io.lockchaos.history;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An unmodifiable JSON object of a few fields, in their order, as one array of alternating names and values. An op's
 * value is such an object (a grant has five fields); a million of them as LinkedHashMaps cost five times the memory,
 * and the young collections that copy them were most of the time spent reading a large history.
 */
final class SmallMap<K> extends AbstractMap<K, Object> {
    private final Object[] kv;

    /** {@code kv} alternates keys (distinct) and values; it is kept, not copied. */
    SmallMap(Object[] kv) {
        this.kv = kv;
    }

    @Override
    public int size() {
        return kv.length / 2;
    }

    @Override
    public Object get(Object key) {
        int i = find(key);
        return i < 0 ? null : kv[i + 1];
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) >= 0;
    }

    private int find(Object key) {
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i] == key) {
                return i;
            }
        }
        for (int i = 0; i < kv.length; i += 2) {
            if (java.util.Objects.equals(kv[i], key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Entry<K, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return kv.length / 2;
            }

            @Override
            public Iterator<Entry<K, Object>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < kv.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<K, Object> next() {
                        if (i >= kv.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<K, Object> e = new SimpleImmutableEntry<>((K) kv[i], kv[i + 1]);
                        i += 2;
                        return e;
                    }
                };
            }
        };
    }

    /** Collects fields in order; a repeated name keeps its first place and takes the last value, as a map's put. */
    static final class Builder<K> {
        /** Above this many keys a repeated key is found by hash instead of by a scan (a scan per key is quadratic). */
        private static final int SCAN_LIMIT = 16;
        private Object[] kv = new Object[16];
        private int n;
        /** Where each key sits in {@link #kv}, once the object is wider than {@link #SCAN_LIMIT}; else null. */
        private java.util.HashMap<Object, Integer> index;

        void put(K name, Object value) {
            int at = indexOf(name);
            if (at >= 0) {
                kv[at + 1] = value;
                return;
            }
            if (n == kv.length) {
                kv = java.util.Arrays.copyOf(kv, n * 2);
            }
            if (index != null) {
                index.put(name, n);
            }
            kv[n++] = name;
            kv[n++] = value;
            if (index == null && indexPays(n / 2)) {
                index = new java.util.HashMap<>();
                for (int i = 0; i < n; i += 2) {
                    index.put(kv[i], i);
                }
            }
        }

        private int indexOf(Object name) {
            if (index != null) {
                Integer i = index.get(name);
                return i == null ? -1 : i;
            }
            for (int i = 0; i < n; i += 2) {
                if (java.util.Objects.equals(kv[i], name)) {
                    return i;
                }
            }
            return -1;
        }

        int size() {
            return n / 2;
        }

        @SuppressWarnings("unchecked")
        Map<K, Object> build() {
            if (indexPays(n / 2)) {
                // Linear lookups stop paying off; a rare wide object gets a hash map.
                Map<K, Object> m = new java.util.LinkedHashMap<>();
                for (int i = 0; i < n; i += 2) {
                    m.put((K) kv[i], kv[i + 1]);
                }
                return java.util.Collections.unmodifiableMap(m);
            }
            return new SmallMap<>(java.util.Arrays.copyOf(kv, n));
        }

        /**
         * Whether a hash index beats scanning {@code entries} keys. Only speed depends on it (both ways find the same
         * entry), so mutation testing leaves it out.
         */
        static boolean indexPays(int entries) {
            return entries > SCAN_LIMIT;
        }

        /** Empties the builder for the next map (the maps it built keep their own arrays). */
        void clear() {
            java.util.Arrays.fill(kv, 0, n, null);
            n = 0;
            index = null;
        }
    }
}
