package io.lockchaos.serve;

import io.lockchaos.report.TimelineHtml;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Content-Security-Policy of every answer of {@code serve}: scripts run only when they are the store browser's own
 * or the timeline template's, allowed by their SHA-256 (never {@code unsafe-inline}); nothing is fetched from elsewhere
 * and no page can be framed. The timeline's data is a {@code application/json} script, which no browser runs, so a
 * string of a hostile history that escaped into a page still could not execute. A timeline written by a lockchaos whose
 * template differs has its script blocked here; {@code report} writes it anew.
 */
final class Csp {
    private static final Pattern SCRIPT = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);

    static final String POLICY = policy();

    private Csp() {
    }

    private static String policy() {
        List<String> scripts = new ArrayList<>(inlineScripts(TimelineHtml.template()));
        scripts.add(Pages.INDEX_SCRIPT);
        StringBuilder hashes = new StringBuilder();
        for (String s : scripts) {
            hashes.append(" 'sha256-").append(sha256(s)).append('\'');
        }
        // styles: the pages' own style element and attributes; a style cannot run code
        return "default-src 'none'; script-src" + hashes + "; style-src 'unsafe-inline'; img-src 'self' data:;"
                + " base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    }

    /** The bodies of the executable inline scripts of a page: {@code <script>} elements without a type. */
    static List<String> inlineScripts(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = SCRIPT.matcher(html);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    static String sha256(String s) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
