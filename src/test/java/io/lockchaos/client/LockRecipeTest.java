package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.Recipe;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LockRecipeTest {
    private static List<LockRecipe> all() {
        return java.util.Arrays.stream(LockRecipe.Kind.values()).filter(k -> k != LockRecipe.Kind.USER)
                .map(k -> k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(3) : LockRecipe.of(k)).toList();
    }

    @Test
    void everyRecipeReadsBackFromItsWireName() {
        for (LockRecipe r : all()) {
            assertEquals(r, LockRecipe.parse(r.wireName()));
            assertEquals(r.wireName(), r.promises().name(), "the checkers report the run's name");
        }
        assertEquals(31, all().stream().map(LockRecipe::wireName).distinct().count());
    }

    @Test
    void eachRecipePromisesWhatItsLibraryDocuments() {
        // capacity, reentrant, owner-only release, FIFO, read/write, counted leases, Redis lease
        Map<String, String> expected = new java.util.HashMap<>();
        expected.put("mutex", "1 - - - - - -");
        expected.put("reentrant-mutex", "1 r o f - - -");
        expected.put("semaphore:3", "3 - - - - c -");
        expected.put("rw", "1 r o f w - -");
        expected.put("multi", "1 r o - - - -");
        for (String n : List.of("naive-exclusive", "naive-herd", "naive-queue")) {
            expected.put(n, "1 - o f - - -");
        }
        expected.put("naive-rw", "1 - o f w - -");
        for (String n : List.of("redis-single", "redlock-tutorial", "redlock", "redisson", "redisson-fenced",
                "redisson-sentinel", "redisson-fenced-sentinel")) {
            expected.put(n, "1 - o - - - l");
        }
        // PostgreSQL: an advisory lock nests per session and is released by its session only; the lease row is
        // released by its owner only, and is a lease
        expected.put("pg-advisory", "1 r o - - - -");
        expected.put("pg-lease", "1 - o - - - l");
        // one transaction holds the transaction-level lock once, and only it can end it (by committing)
        expected.put("pg-advisory-xact", "1 - o - - - -");
        // etcd: a key on a lease, deleted by its holder only
        expected.put("etcd-lock", "1 - o - - - l");
        expected.put("etcd-lock-fenced", "1 - o - - - l");
        // ShedLock: one job at a time while it ends within lockAtMostFor; its unlock names no owner (on the
        // application's clock), so it promises no owner-only release
        expected.put("shedlock-jdbc", "1 - - - - - l");
        expected.put("shedlock-redis", "1 - - - - - l");
        expected.put("shedlock-zookeeper", "1 - - - - - l");
        // Spring Integration's JdbcLockRegistry: its unlock deletes the row only where it names its own client id
        expected.put("spring-jdbc", "1 - o - - - l");
        expected.put("spring-redis", "1 - o - - - l");
        expected.put("spring-zookeeper", "1 - o - - - -");
        // Curator's leader elections: one leader, who alone gives leadership up
        expected.put("leader-latch", "1 - o - - - -");
        expected.put("leader-selector", "1 - o - - - -");
        // Hazelcast's FencedLock: reentrant, unlocked by its owner (session and thread) only; a CP session is no
        // lease the client keeps: the client is never told it ended
        expected.put("hazelcast-fenced", "1 r o - - - -");
        expected.put("hazelcast-fenced-unsafe", "1 r o - - - -");
        for (LockRecipe r : all()) {
            Recipe p = r.promises();
            String got = p.capacity() + " " + (p.reentrant() ? "r" : "-") + " " + (p.ownerRelease() ? "o" : "-") + " "
                    + (p.fifo() ? "f" : "-") + " " + (p.readWrite() ? "w" : "-") + " " + (p.counted() ? "c" : "-")
                    + " " + (p.leased() ? "l" : "-");
            assertEquals(expected.get(r.wireName()), got, r.wireName());
        }
        assertTrue(LockRecipe.semaphore(1).promises().isSemaphore(), "one lease is still counted");
        for (LockRecipe r : all()) {
            assertEquals(r.wireName().startsWith("leader-"), r.promises().leadership(), r.wireName());
        }
    }

    @Test
    void namesAreListedOnceForHelpAndErrors() {
        List<String> names = new java.util.ArrayList<>();
        new LockRecipe.Names().forEach(names::add);
        assertEquals(LockRecipe.Kind.values().length - 1, names.size(), "a user's lock is named by its class");
        String err = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> LockRecipe.parse("spinlock")).getMessage();
        for (String n : names) {
            assertTrue(err.contains(n), err);
        }
        assertTrue(LockRecipe.parse("semaphore:2").promises().isSemaphore());
    }

    @Test
    void capabilitiesFollowTheRecipe() {
        for (LockRecipe r : all()) {
            // a library's lock on ZooKeeper opens its own sessions, as the tutorial's and a user's do
            assertEquals(r.wireName().startsWith("naive-") || r.kind().library() != null && r.zooKeeper(), r.naive(),
                    r.wireName());
            assertEquals(r.wireName().endsWith("rw"), r.readWrite(), r.wireName());
            assertEquals(r.kind() == LockRecipe.Kind.MULTI, r.spansKeys(), r.wireName());
            assertEquals(r.kind() != LockRecipe.Kind.SEMAPHORE, r.protectsResources(), r.wireName());
            if (r.naive() && r.kind().library() == null) {
                // the tutorial's locks are written as if they were owner-only, queue-ordered mutexes
                Recipe p = r.promises();
                assertTrue(p.ownerRelease() && p.fifo() && !p.reentrant() && p.capacity() == 1, r.wireName());
            }
        }
        assertEquals(3, LockRecipe.semaphore(3).promises().capacity());
        assertFalse(LockRecipe.semaphore(1).protectsResources(), "every semaphore, as runs always had it");
    }

    @Test
    void eachRecipeHasTheModelOfWhatItPromises() {
        Map<String, String> expected = new java.util.HashMap<>(Map.of("mutex", "mutex", "reentrant-mutex",
                "reentrant-mutex", "semaphore:3", "semaphore:3", "rw", "rw", "multi", "reentrant-mutex",
                "naive-exclusive", "owner-mutex", "naive-rw", "rw", "naive-herd", "owner-mutex",
                "naive-queue", "owner-mutex"));
        // the Redis locks: exclusive, released by their value's owner only
        for (String redis : List.of("redis-single", "redlock-tutorial", "redlock", "redisson", "redisson-fenced",
                "redisson-sentinel", "redisson-fenced-sentinel", "pg-lease", "etcd-lock", "etcd-lock-fenced")) {
            expected.put(redis, "owner-mutex");
        }
        expected.put("pg-advisory", "reentrant-mutex");
        expected.put("pg-advisory-xact", "owner-mutex");
        expected.put("shedlock-jdbc", "mutex");
        expected.put("shedlock-redis", "mutex");
        expected.put("shedlock-zookeeper", "mutex");
        expected.put("spring-jdbc", "owner-mutex");
        expected.put("spring-redis", "owner-mutex");
        expected.put("spring-zookeeper", "owner-mutex");
        expected.put("leader-latch", "owner-mutex");
        expected.put("leader-selector", "owner-mutex");
        expected.put("hazelcast-fenced", "reentrant-mutex");
        expected.put("hazelcast-fenced-unsafe", "reentrant-mutex");
        for (LockRecipe r : all()) {
            assertEquals(expected.get(r.wireName()), r.model().name(), r.wireName());
        }
        assertEquals("semaphore:1", LockRecipe.semaphore(1).model().name(), "a one-lease semaphore stays one");
    }

    @Test
    void aLibrarysRecipeIsNotALockFromAJarAndNeedsNoClasspathToBeChecked() {
        LockRecipe named = LockRecipe.parse("shedlock-jdbc");
        assertEquals(null, named.user(), "a stored history's checkers read the name only");
        LockRecipe resolved = LockRecipe.library(LockRecipe.Kind.SHEDLOCK_JDBC, List.of("/repo/shedlock.jar"));
        assertEquals("io.lockchaos.shedlock.ShedLockJdbc", resolved.user().className());
        assertEquals(null, resolved.fromJar());
        assertEquals(named.promises(), resolved.promises(), "the recipe's name, not its factory's, in the reports");
        assertEquals("shedlock", LockRecipe.Kind.SHEDLOCK_JDBC.library().name());
        assertEquals("shedlock-jdbc, shedlock-redis, shedlock-zookeeper, spring-jdbc, spring-redis,"
                + " spring-zookeeper, hazelcast-fenced or hazelcast-fenced-unsafe",
                LockRecipe.Names.libraries(),
                "what a message that needs a library's recipe lists, from the kinds");
        assertThrows(IllegalArgumentException.class, () -> new LockRecipe(LockRecipe.Kind.PG_LEASE, 1,
                resolved.user()), "only a library's recipe or a lock from a jar has a factory");
    }

    @Test
    void badNamesAreOneLineErrors() {
        for (String bad : List.of("mutx", "semaphore:0", "semaphore:x", "semaphore:", "semaphore:99999999999", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LockRecipe.parse(bad));
            assertTrue(e.getMessage().startsWith("unknown recipe '" + bad + "'"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
        assertThrows(IllegalArgumentException.class, () -> new LockRecipe(LockRecipe.Kind.MUTEX, 2));
        assertThrows(IllegalArgumentException.class, () -> LockRecipe.semaphore(0));
    }
}
