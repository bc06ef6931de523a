/**
 * What each test class costs: its wall time and the CPU that its test JVM and every process it started and waited
 * for used meanwhile, written to {@code target/test-cost/} by a JUnit listener that registers itself. The slow tier
 * runs four test JVMs on two cores, so a class's wall time there says more about its neighbours than about itself;
 * its CPU is what the suite's time is made of, and what to cut first.
 */
package io.lockchaos.cost;
