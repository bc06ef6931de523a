/**
 * The documentation as a test: every shell command of the README and the manual is run as a user would type it, from
 * the root of a working copy, and held to what the text says it does. It runs in the integration-test phase, after
 * the jar is built, since the commands use {@code bin/lockchaos}.
 */
package io.lockchaos.docs;
