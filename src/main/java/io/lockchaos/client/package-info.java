/**
 * Clients that drive lock recipes and record what they do. A {@link io.lockchaos.client.Recorder} stamps and appends
 * every invocation and completion to the history as it happens; a {@link io.lockchaos.api.LockClient} wraps one
 * recipe on one Curator session and reports, for each grant, the lock node, its czxid (the fencing token), the
 * client's session id and the node's ephemeral owner.
 */
package io.lockchaos.client;
