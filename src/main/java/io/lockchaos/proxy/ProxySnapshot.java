package io.lockchaos.proxy;

import java.util.List;

/**
 * A consistent view of one proxy for the API.
 *
 * @param listen the bound address, with a requested port 0 replaced by the real one once bound
 */
record ProxySnapshot(String name, HostPort listen, HostPort upstream, boolean enabled, List<Toxic> toxics) {
    ProxySnapshot {
        toxics = List.copyOf(toxics);
    }
}
