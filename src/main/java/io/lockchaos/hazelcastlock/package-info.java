/**
 * Hazelcast's FencedLock as a built-in recipe ({@code hazelcast-fenced}), written against {@code io.lockchaos.api} and
 * Hazelcast's client only, the way a user wraps a lock library (the layout test holds it to that). Hazelcast is not in
 * lockchaos' jar: a run resolves the release it names ({@code library_version}) and this class loads it in client
 * agents; the members it locks on are the service's ({@code io.lockchaos.hazelcast}).
 */
package io.lockchaos.hazelcastlock;
