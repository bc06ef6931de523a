package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The map builder of the readers agrees with a LinkedHashMap, for narrow objects (scanned) and wide ones (hashed). */
class SmallMapTest {
    @Test
    void repeatedKeysKeepTheirFirstPlaceAndTheirLastValueWhateverTheWidth() {
        SplittableRandom r = new SplittableRandom(13);
        SmallMap.Builder<String> b = new SmallMap.Builder<>();
        for (int width : new int[] {1, 5, 16, 17, 40, 2000}) {
            for (int round = 0; round < 20; round++) {
                b.clear();
                Map<String, Object> expected = new LinkedHashMap<>();
                for (int i = 0; i < width * 2; i++) {
                    String key = "k" + r.nextInt(width);
                    Object value = r.nextLong();
                    b.put(key, value);
                    expected.put(key, value);
                }
                Map<String, Object> m = b.build();
                assertEquals(expected, m, "width " + width);
                assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(m.keySet()), "order, width " + width);
                assertEquals(expected.size(), b.size());
            }
        }
        assertNull(b.build().get("absent"));
    }

    @Test
    void aClearedBuilderForgetsItsWideIndex() {
        SmallMap.Builder<String> b = new SmallMap.Builder<>();
        for (int i = 0; i < 100; i++) {
            b.put("k" + i, i);
        }
        b.clear();
        b.put("k5", "again");
        b.put("k5", "last");
        assertEquals(Map.of("k5", "last"), b.build());
        assertEquals(List.of("k5"), new ArrayList<>(b.build().keySet()));
    }
}
