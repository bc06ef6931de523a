/**
 * Hunting: a campaign of runs drawn at random from what lockchaos can run here (every recipe whose servers this
 * machine can start, the Curator releases asked for, client modes, workload shapes and every fault the recipe's
 * service takes), never from the bug zoo's workloads, within a time budget. A failing run is shrunk, its finding
 * grouped with the others by a signature (recipe, anomaly kinds, fault kinds, and the kinds of event in its story),
 * matched against the bug zoo's known signatures, measured for how often it reproduces and on which versions, and
 * written as a report a person could file upstream.
 */
package io.lockchaos.hunt;
