/**
 * Oracles for the checkers that share no code with them. {@code BruteForceOracle} replays lockchaos' own reading of
 * its runs (who certainly held what, releases implied by expiry) and searches every order of a small history's lock
 * ops; {@code KnossosOracle} is Jepsen's reading alone, written again from Knossos' model definitions, with EDN values
 * compared as Clojure compares them, and knows nothing of implied releases. Differential property tests hold the
 * dedicated checkers and the WGL search to the first, and every model read with {@code --expiry none} to the second.
 */
package io.lockchaos.oracle;
