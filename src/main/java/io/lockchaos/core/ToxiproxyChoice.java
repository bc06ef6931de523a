package io.lockchaos.core;

/**
 * Which Toxiproxy serves a run's network faults: the embedded Toxiproxy-compatible server, or a running
 * toxiproxy-server at {@code url}.
 *
 * @param url the server's API address ({@code http://host:port}), or null for the embedded one
 */
public record ToxiproxyChoice(String url) {
    public static final ToxiproxyChoice EMBEDDED = new ToxiproxyChoice(null);

    public ToxiproxyChoice {
        if (url != null && !url.matches("http://[^/:]+:[0-9]+/?")) {
            throw new IllegalArgumentException("expected embedded or http://host:port, got '" + url + "'");
        }
    }

    /**
     * Parses {@code embedded} or {@code http://host:port}.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static ToxiproxyChoice parse(String s) {
        return s.equals("embedded") ? EMBEDDED : new ToxiproxyChoice(s);
    }

    public boolean embedded() {
        return url == null;
    }

    public String wireName() {
        return url == null ? "embedded" : url;
    }
}
