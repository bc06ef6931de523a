/**
 * A small property-based testing engine in plain Java: seeded {@link io.lockchaos.prop.Gen generators}, {@link
 * io.lockchaos.prop.Shrinker shrinkers}, and {@link io.lockchaos.prop.Property} which runs a predicate on many
 * generated cases, prints the seed of a failure so it can be replayed, and shrinks the failing case greedily. Nothing
 * here depends on a test framework, so a user's own framework can drive lockchaos' generators and shrinkers too.
 * {@link io.lockchaos.prop.HistoryShrinker} shrinks histories by dropping processes and op pairs and compressing time.
 */
package io.lockchaos.prop;
