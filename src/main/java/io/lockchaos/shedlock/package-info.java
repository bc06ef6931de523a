/**
 * ShedLock's lock providers as built-in recipes ({@code shedlock-jdbc}), written against {@code io.lockchaos.api} the
 * way a user wraps a lock library, importing nothing else of lockchaos (the layout test holds them to it). The
 * library is not in lockchaos' jar: a run resolves the release it names ({@code library_version}) and these classes
 * load it in client agents, so one recipe runs on any ShedLock release whose API it compiles against.
 */
package io.lockchaos.shedlock;
