/**
 * Spring Integration's lock registries as built-in recipes ({@code spring-jdbc}, {@code spring-redis}, {@code spring-zookeeper}), written against {@code
 * io.lockchaos.api} the way a user wraps a lock library, importing nothing else of lockchaos (the layout test holds
 * them to it). Spring Integration is not in lockchaos' jar: a run resolves the release it names ({@code
 * library_version}) and these classes load it in client agents.
 */
package io.lockchaos.spring;
