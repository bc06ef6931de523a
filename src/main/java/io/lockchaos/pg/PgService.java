package io.lockchaos.pg;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.cluster.Cluster;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** PostgreSQL as a lock service: Debian's server binaries as child processes, and the locks of this package. */
public final class PgService implements LockService {
    @Override
    public Backend backend() {
        return Backend.POSTGRES;
    }

    @Override
    public String servers() {
        return "PostgreSQL server(s)";
    }

    @Override
    public LockFactory factory(LockRecipe recipe) {
        return new PgLockFactory(recipe);
    }

    @Override
    public Cluster start(ServerPlan plan) throws IOException {
        return PgServers.create(plan.folder(), plan.nodes(), plan.recipe().promises().leased(), plan.clockShift(),
                PgReplication.parse(String.valueOf(plan.setting("pg_replication"))), plan.routing());
    }

    @Override
    public boolean takesExistingServers() {
        return false;
    }

    @Override
    public String missing() {
        return PgServers.findBinaries() == null ? PgServers.MISSING : null;
    }

    @Override
    public Map<String, String> versions() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("postgresql", PgServers.version());
        v.put("pgjdbc", org.postgresql.Driver.getVersion());
        return v;
    }

    @Override
    public Inspection inspect(String connect, List<String> keys) {
        PgInspection.Found f = PgInspection.inspect(connect, keys);
        return new Inspection(f.left(), f.expiring());
    }
}
