package io.lockchaos.client;

import java.util.List;
import java.util.Map;

/**
 * What a lock service's servers logged, compared across servers (see {@link LockService#serverLogs}).
 *
 * @param lines what to print: each server's log, then each difference
 * @param json the same as data, for a file beside the run
 * @param hole whether some server lacks what the others logged (that no snapshot of its own may hold)
 */
public record ServerLogs(List<String> lines, Map<String, Object> json, boolean hole) {
    public ServerLogs {
        lines = List.copyOf(lines);
        json = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(json));
    }
}
