/**
 * Tests of the code's shape rather than its behaviour: which package may name which, that project classes are
 * imported rather than named in full, and where a lock service's identity may be decided.
 */
package io.lockchaos.layout;
