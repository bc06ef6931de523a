package io.lockchaos.ssh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * How the runner logs in to its hosts.
 *
 * @param user the login user (root, or one allowed {@code sudo -n} for iptables)
 * @param key the private key file (OpenSSH format, RSA or ECDSA; not encrypted)
 * @param port the SSH port of every host
 * @param knownHosts the known-hosts file a host's key must be in
 * @param acceptNew whether a host missing from {@code knownHosts} is recorded there on first contact (a host whose
 *     recorded key changed is refused either way)
 */
public record SshOptions(String user, Path key, int port, Path knownHosts, boolean acceptNew) {
    public SshOptions {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("ssh_user: empty");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("ssh_port: expected 1 to 65535, got " + port);
        }
    }

    /**
     * Why the key cannot be used, in one line naming {@code ssh_key}, or null when it can: a file lockchaos can read
     * that holds an RSA or ECDSA key, not encrypted (MINA reads no ed25519 key without a library lockchaos lacks).
     */
    public String keyProblem() {
        if (!Files.isReadable(key)) {
            return "ssh_key: cannot read " + key + " (give the private key that logs in to the hosts: --ssh-key FILE)";
        }
        try {
            java.util.List<java.security.KeyPair> keys = new java.util.ArrayList<>();
            new org.apache.sshd.common.keyprovider.FileKeyPairProvider(key).loadKeys(null).forEach(keys::add);
            if (!keys.isEmpty()) {
                return null;
            }
        } catch (RuntimeException e) { // MINA wraps what it cannot read
            // said below
        }
        return "ssh_key: " + key + " holds no key lockchaos can use (an RSA or ECDSA key in OpenSSH or PEM format,"
                + " not encrypted; ed25519 keys are not read)";
    }

    /** The options a run's workload keys give ({@code ssh_user}, {@code ssh_key}, ...), read by {@code settings}. */
    public static SshOptions of(Function<String, Object> settings) {
        return defaults(String.valueOf(settings.apply("ssh_user")), String.valueOf(settings.apply("ssh_key")),
                ((Number) settings.apply("ssh_port")).intValue(), String.valueOf(settings.apply("ssh_known_hosts")),
                (Boolean) settings.apply("ssh_accept_new"));
    }

    /** The hosts of a comma-separated list ({@code hosts}, {@code client_hosts}), blanks dropped. */
    public static List<String> hosts(String text) {
        return Arrays.stream(text.split(",")).map(String::strip).filter(h -> !h.isEmpty()).toList();
    }

    /**
     * The options with what is not given filled in as OpenSSH would: the current user, the first of {@code
     * ~/.ssh/id_ecdsa} and {@code ~/.ssh/id_rsa} that exists, port 22 and {@code ~/.ssh/known_hosts}.
     */
    public static SshOptions defaults(String user, String key, int port, String knownHosts, boolean acceptNew) {
        Path ssh = Path.of(System.getProperty("user.home"), ".ssh");
        Path keyFile = key == null || key.isEmpty() ? List.of(ssh.resolve("id_ecdsa"), ssh.resolve("id_rsa")).stream()
                .filter(Files::isRegularFile).findFirst().orElse(ssh.resolve("id_ecdsa")) : Path.of(key);
        return new SshOptions(user == null || user.isEmpty() ? System.getProperty("user.name") : user, keyFile,
                port <= 0 ? 22 : port, knownHosts == null || knownHosts.isEmpty() ? ssh.resolve("known_hosts")
                        : Path.of(knownHosts), acceptNew);
    }
}
