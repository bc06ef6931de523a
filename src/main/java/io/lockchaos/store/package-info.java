/**
 * Where runs are stored: {@code histories/<test>/<yyyyMMdd'T'HHmmss>/} with the streamed history.jsonl, test.json,
 * results.json and the servers' folders, and a {@code latest} link to the newest run of each test.
 */
package io.lockchaos.store;
