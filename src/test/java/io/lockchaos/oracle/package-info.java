/**
 * An oracle for the checkers that shares no code with them: a position-by-position replay of who certainly held what,
 * and an exhaustive search over every order of a small history's lock ops. Differential property tests hold the
 * dedicated checkers and the WGL search to its answers on generated histories.
 */
package io.lockchaos.oracle;
