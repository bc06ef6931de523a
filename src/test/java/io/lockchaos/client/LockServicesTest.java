package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.core.Keys;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every registered lock service held to {@link LockService}'s contract: one per {@link Backend}, each registered once
 * and living in a package of its own, each serving its recipes (and only its recipes) with a factory that promises
 * what the recipe promises, a plural name for its servers and a one-line preflight.
 */
class LockServicesTest {
    private static List<LockRecipe> recipes() {
        return Arrays.stream(LockRecipe.Kind.values()).filter(k -> k != LockRecipe.Kind.USER)
                .map(k -> k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(2) : LockRecipe.of(k)).toList();
    }

    @Test
    void everyBackendHasOneServiceRegisteredOnceEachInAPackageOfItsOwn() throws IOException {
        assertEquals(Backend.values().length, LockServices.all().size(), "one service per backend");
        List<String> packages = new ArrayList<>();
        for (Backend b : Backend.values()) {
            LockService s = LockServices.of(b);
            assertEquals(b, s.backend());
            packages.add(s.getClass().getPackageName());
        }
        assertEquals(packages.size(), packages.stream().distinct().count(), "a package per service: " + packages);
        List<String> lines;
        try (InputStream in = LockServices.class.getResourceAsStream("/META-INF/services/"
                + LockService.class.getName())) {
            assertNotNull(in, "the registration file is on the class path");
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
        assertEquals(lines.size(), lines.stream().distinct().count(), "each registered once: " + lines);
        assertEquals(Backend.values().length, lines.size(), lines.toString());
    }

    @Test
    void eachServiceOpensItsOwnRecipesPromisingWhatTheyPromiseAndRefusesTheOthers() {
        for (LockRecipe r : recipes()) {
            for (LockService s : LockServices.all()) {
                if (s.backend() == r.backend()) {
                    LockFactory f = s.factory(r);
                    assertEquals(r.promises().promises(), f.promises(), r.wireName());
                    assertEquals(r.backend(), f.backend(), r.wireName());
                } else {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.factory(r),
                            s.backend() + " opened " + r.wireName());
                    assertTrue(e.getMessage().startsWith(r.wireName() + " is not a recipe on "), e.getMessage());
                }
            }
        }
    }

    @Test
    void eachServiceNamesItsServersAndSaysWhatIsMissingInOneLine() {
        for (LockService s : LockServices.all()) {
            assertTrue(s.servers().endsWith("(s)") && !s.servers().isBlank(), s.servers());
            String missing = s.missing();
            assertTrue(missing == null || !missing.isBlank() && !missing.contains("\n"), String.valueOf(missing));
            assertFalse(s.versions().containsKey("lockchaos"), "the run records its own version");
        }
        assertTrue(LockServices.of(Backend.ZOOKEEPER).takesExistingServers(), "--connect names a ZooKeeper ensemble");
    }

    @Test
    void whatEachServiceDeclaresIsWellFormedAndOwnedOnce() {
        Set<String> keys = new HashSet<>();
        Set<FaultKind> faults = EnumSet.noneOf(FaultKind.class);
        for (LockService s : LockServices.all()) {
            assertTrue(s.clusters().contains(ClusterKind.LOCAL), s.name() + " runs on this machine");
            assertFalse(s.name().isBlank());
            for (String k : s.keys()) {
                assertNotNull(Keys.named(k), s.name() + " declares " + k + ", which is no workload key");
                assertTrue(keys.add(k), k + " is owned by two services");
            }
            for (FaultKind f : s.ownFaults()) {
                assertTrue(faults.add(f), f + " is owned by two services");
            }
            assertEquals(s.agents() == LockService.Agents.CURATOR_VERSIONS, s.backend() == Backend.ZOOKEEPER,
                    "only Curator's recipes run on other Curator releases");
            // a lock's own servers have no recipe of lockchaos' own, and so no column on the Faults page
            assertEquals(s.backend() != Backend.OWN, !s.setUps().isEmpty(), s.name() + " has usual set-ups for the"
                    + " Faults page");
            s.setUps().values().forEach(list -> list.forEach(setUp -> assertEquals(s.backend(),
                    LockRecipe.parse(setUp.get("recipe")).backend(), s.name() + "'s set-up " + setUp)));
        }
        assertNull(LockServices.of(Backend.ZOOKEEPER).missing(), "ZooKeeper is lockchaos' own dependency");
    }
}
