/**
 * Clients that drive lock recipes and record what they do. A {@link io.lockchaos.client.Recorder} stamps and appends
 * every invocation and completion to the history as it happens; a {@link io.lockchaos.api.LockClient} wraps one
 * recipe on one Curator session and reports, for each grant, the lock node, its czxid (the fencing token), the
 * client's session id and the node's ephemeral owner. A client is opened with {@link io.lockchaos.client.LockSettings}
 * through the one {@link io.lockchaos.client.ClientContext}, in the runner's JVM or an agent's alike. Which lock
 * service a recipe runs on is asked of {@link io.lockchaos.client.LockServices}: the services' interface lives here,
 * beside the recipes it opens, because the runner ({@code core}) and the agents both need it and neither may depend on
 * the other; each service implements it in its own package ({@code zookeeper}, {@code redis}, {@code pg}, {@code etcd}).
 */
package io.lockchaos.client;
