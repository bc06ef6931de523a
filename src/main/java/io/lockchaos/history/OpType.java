package io.lockchaos.history;

import java.util.Locale;

/** Jepsen's four op types. {@code INFO} is indeterminate: the op may or may not have taken effect. */
public enum OpType {
    INVOKE, OK, FAIL, INFO;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Returns the type for a wire name, or null when there is none. */
    public static OpType parse(String s) {
        switch (s) {
            case "invoke": return INVOKE;
            case "ok": return OK;
            case "fail": return FAIL;
            case "info": return INFO;
            default: return null;
        }
    }
}
