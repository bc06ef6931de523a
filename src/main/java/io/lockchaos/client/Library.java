package io.lockchaos.client;

import java.util.List;

/**
 * A lock library a built-in recipe wraps (ShedLock's providers): the recipe's factory, written against {@code
 * io.lockchaos.api} as a user's lock is, and the library it runs on, resolved at run time at the version the run names
 * ({@code library_version}) and loaded only in client agents, never in lockchaos' own jar.
 *
 * @param name the library, as test.json's versions and the reports name it ({@code shedlock})
 * @param factory the recipe's {@link io.lockchaos.api.LockFactory} class, in lockchaos' own classes
 * @param group the Maven group of the artifact whose version the run names
 * @param artifact that artifact
 * @param compiledVersion the release the recipe is compiled against: the default of {@code library_version}
 * @param range a range of its releases, for messages
 * @param alongside what is resolved beside it at fixed versions (group:artifact:version): what the library leaves to
 *     its user to bring, such as a JDBC driver
 */
public record Library(String name, String factory, String group, String artifact, String compiledVersion,
                      String range, List<String> alongside) {
    /** The PostgreSQL driver lockchaos itself speaks with, beside a JDBC library that leaves the driver to its user. */
    static final String POSTGRES_DRIVER = "org.postgresql:postgresql:42.7.14";

    /** ShedLock's JdbcTemplate provider, on the PostgreSQL driver. */
    static final Library SHEDLOCK_JDBC = new Library("shedlock", "io.lockchaos.shedlock.ShedLockJdbc",
            "net.javacrumbs.shedlock", "shedlock-provider-jdbc-template", "6.3.1", "5.0.0..6.3.1",
            List.of(POSTGRES_DRIVER));

    /** ShedLock's ZooKeeper provider, whose last release is 4.42.0, on the Curator it depends on. */
    static final Library SHEDLOCK_ZOOKEEPER = new Library("shedlock", "io.lockchaos.shedlock.ShedLockZooKeeper",
            "net.javacrumbs.shedlock", "shedlock-provider-zookeeper-curator", "4.42.0", "4.0.0..4.42.0", List.of());

    /** ShedLock's Redis provider on Jedis (the Jedis lockchaos links comes first in the agents, as Curator does). */
    static final Library SHEDLOCK_REDIS = new Library("shedlock", "io.lockchaos.shedlock.ShedLockRedis",
            "net.javacrumbs.shedlock", "shedlock-provider-redis-jedis4", "5.12.0", "4.35.0..5.12.0", List.of());

    /** Spring Integration's JdbcLockRegistry, on the PostgreSQL driver. */
    static final Library SPRING_JDBC = new Library("spring-integration", "io.lockchaos.spring.SpringJdbcLockRegistry",
            "org.springframework.integration", "spring-integration-jdbc", "6.5.10", "6.0.0..6.5.10",
            List.of(POSTGRES_DRIVER));

    /**
     * Spring Integration's RedisLockRegistry, on Lettuce, the Redis client Spring Data Redis defaults to (it leaves the
     * client to its user).
     */
    static final Library SPRING_REDIS = new Library("spring-integration", "io.lockchaos.spring.SpringRedisLockRegistry",
            "org.springframework.integration", "spring-integration-redis", "6.5.10", "6.0.0..7.0.0",
            List.of("io.lettuce:lettuce-core:6.6.0.RELEASE"));

    /** Spring Integration's ZookeeperLockRegistry, on the Curator lockchaos links (it comes first in the agents). */
    static final Library SPRING_ZOOKEEPER = new Library("spring-integration",
            "io.lockchaos.spring.SpringZooKeeperLockRegistry", "org.springframework.integration",
            "spring-integration-zookeeper", "6.5.0", "6.0.0..6.5.0", List.of());

    /**
     * Hazelcast's FencedLock, through Hazelcast's client, on members of the same release; 5.4.0 is the last whose CP
     * Subsystem is open source.
     */
    static final Library HAZELCAST = new Library("hazelcast", "io.lockchaos.hazelcastlock.HazelcastFencedLock",
            "com.hazelcast", "hazelcast", "5.4.0", "5.0.0..5.4.0", List.of());

    public Library {
        alongside = List.copyOf(alongside);
    }
}
