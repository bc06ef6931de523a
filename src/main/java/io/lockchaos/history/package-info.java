/**
 * The operation history: every invoke and completion a test performs, in Jepsen's vocabulary. A {@link
 * io.lockchaos.history.History} is an immutable, validated list of {@link io.lockchaos.history.Op}s in which every
 * invocation is paired with at most one completion of the same process; it is read from and written to JSON lines
 * (one op per line, flushed as it happens so a killed run leaves a readable prefix) and Jepsen's EDN. Readers reject
 * malformed input with a {@link io.lockchaos.history.HistoryFormatException} that names the file, line and field.
 */
package io.lockchaos.history;
