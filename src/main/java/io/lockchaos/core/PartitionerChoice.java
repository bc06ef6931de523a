package io.lockchaos.core;

import java.util.Locale;

/** What cuts the servers apart for partitions and server isolation. */
public enum PartitionerChoice {
    /** iptables with {@code --cluster netns}, the proxies everywhere else. */
    AUTO,
    /** A Toxiproxy proxy per directed pair of servers (local and container clusters). */
    TOXIPROXY,
    /** iptables DROP rules inside the servers' network namespaces (netns and container clusters; needs root). */
    IPTABLES;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code auto}, {@code toxiproxy} or {@code iptables}; null for anything else. */
    public static PartitionerChoice parse(String s) {
        for (PartitionerChoice c : values()) {
            if (c.wireName().equals(s)) {
                return c;
            }
        }
        return null;
    }
}
