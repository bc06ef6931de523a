/**
 * Printing only: results.json and the console summary. Report code renders what checkers decided and never decides a
 * verdict itself.
 */
package io.lockchaos.report;
