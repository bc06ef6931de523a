/**
 * Client agents: lock clients that run in child JVMs on any Curator version instead of the runner's own (5.9.0). A
 * {@link io.lockchaos.agent.VersionResolver} resolves the version's jars from Maven Central into the local repository,
 * {@link io.lockchaos.agent.AgentLauncher} starts the agents on them, and each {@link io.lockchaos.agent.RemoteClient}
 * is one client whose acquires and releases run in an agent over a loopback socket (one JSON object per line,
 * {@link io.lockchaos.agent.AgentWire}), recorded by the runner exactly as an in-process client's.
 */
package io.lockchaos.agent;
