package io.lockchaos.pg;

import io.lockchaos.client.LockService.Inspection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a PostgreSQL server still holds for the lock keys at the end of a run, for the leak checker: every advisory
 * lock granted on a key's number (its owner the server process of the session holding it: a session-level lock never
 * expires), and every lease row not yet expired (its owner the client's id, expiring by itself).
 */
public final class PgInspection {
    private PgInspection() {
    }

    public static Inspection inspect(String address, List<String> keys) {
        List<Map<String, Object>> left = new ArrayList<>();
        List<Map<String, Object>> expiring = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(PgServers.url(address, Duration.ofSeconds(2),
                Duration.ofSeconds(5)))) {
            for (String key : keys) {
                long id = AdvisoryLock.idOf(key);
                try (PreparedStatement s = c.prepareStatement("SELECT pid FROM pg_locks WHERE locktype = 'advisory'"
                        + " AND granted AND ((classid::bigint << 32) | objid::bigint) = ?")) {
                    s.setLong(1, id);
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            Map<String, Object> n = new LinkedHashMap<>();
                            n.put("key", key);
                            n.put("node", "advisory:" + id);
                            n.put("owner", r.getLong(1));
                            left.add(n);
                        }
                    }
                }
            }
            boolean leases;
            try (ResultSet r = c.createStatement().executeQuery("SELECT to_regclass('lockchaos_lease') IS NOT NULL")) {
                r.next();
                leases = r.getBoolean(1);
            }
            if (leases) {
                try (PreparedStatement s = c.prepareStatement("SELECT name, owner, version, (extract(epoch FROM"
                        + " expires_at - now()) * 1000)::bigint FROM lockchaos_lease WHERE expires_at > now()")) {
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            Map<String, Object> n = new LinkedHashMap<>();
                            n.put("key", r.getString(1));
                            n.put("node", "lease:" + r.getString(1));
                            n.put("owner", Long.parseLong(r.getString(2)));
                            n.put("version", r.getLong(3));
                            n.put("pttl_ms", r.getLong(4));
                            expiring.add(n);
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return new Inspection(left, expiring);
    }
}
