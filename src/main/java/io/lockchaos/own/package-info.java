/**
 * The lock's own servers as a lock service: a user's lock whose factory says {@code Backend.OWN} brings the command
 * of each server ({@code io.lockchaos.api.LockServers}), and this package starts those programs as child processes of
 * the run (on loopback, or each in a network namespace of its own), kills, restarts and pauses them, and puts them
 * behind the run's proxies, as every service's servers are. What the servers are and hold stays the lock's business:
 * they are asked for nothing but a TCP connection, and the lock's factory inspects them.
 */
package io.lockchaos.own;
