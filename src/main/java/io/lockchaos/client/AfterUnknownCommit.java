package io.lockchaos.client;

import java.util.Locale;

/**
 * What a holder does when its commit to the protected data in a database went unanswered ({@code
 * after_unknown_commit}): the commit may have taken or not, and the holder cannot tell.
 */
public enum AfterUnknownCommit {
    /** Jepsen's way: the add is recorded as info and its process retires; nobody adds it again. */
    RETIRE,
    /**
     * The tutorial's advice taken as written: retry the whole flow. The process retires as above, and the worker's
     * next processes add the same element again, in a new lock hold and transaction, until one is acknowledged: where
     * the first commit took, the element is then in the data twice.
     */
    RETRY,
    /**
     * The retry made idempotent: the retrying critical section reads first and adds the element only when the read
     * lacks it (the lock, held for the read and the write, is what makes that check safe).
     */
    RETRY_IF_ABSENT;

    /** Its value in a workload ({@code retire}, {@code retry}, {@code retry_if_absent}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The behaviour {@code text} names.
     *
     * @throws IllegalArgumentException naming the key, for any other value
     */
    public static AfterUnknownCommit parse(String text) {
        for (AfterUnknownCommit a : values()) {
            if (a.wireName().equals(text)) {
                return a;
            }
        }
        throw new IllegalArgumentException("after_unknown_commit: expected retire, retry or retry_if_absent, got '"
                + text + "'");
    }
}
