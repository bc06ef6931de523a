package io.lockchaos.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/** The settings spring-redis reads from lock_settings: each value the docs name, and a wrong one in one line. */
class SpringRedisLockRegistryTest {
    @Test
    void lockTypeAndRenewalAreReadFromTheSettingsAndAWrongValueIsOneLine() {
        assertEquals(RedisLockType.SPIN_LOCK, SpringRedisLockRegistry.lockType(Map.of()), "the registry's default");
        assertEquals(RedisLockType.PUB_SUB_LOCK, SpringRedisLockRegistry.lockType(Map.of("lock_type", "pub-sub")));
        assertEquals(RedisLockType.SPIN_LOCK, SpringRedisLockRegistry.lockType(Map.of("lock_type", "spin")));
        assertEquals("lock_settings: lock_type: expected spin or pub-sub, got 'fifo'", assertThrows(
                IllegalArgumentException.class, () -> SpringRedisLockRegistry.lockType(Map.of("lock_type", "fifo")))
                .getMessage());
        assertFalse(SpringRedisLockRegistry.renews(Map.of()));
        assertTrue(SpringRedisLockRegistry.renews(Map.of("renew", "true")));
        assertEquals("lock_settings: renew: expected true or false, got 'yes'", assertThrows(
                IllegalArgumentException.class, () -> SpringRedisLockRegistry.renews(Map.of("renew", "yes")))
                .getMessage());
    }
}
