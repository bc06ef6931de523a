/**
 * The store browser behind {@code lockchaos serve}: a JDK HTTP server on 127.0.0.1 that lists every stored run and
 * opens each run's reports. It reads runs through {@link io.lockchaos.store.StoreIndex} and never serves a byte from
 * outside the store root.
 */
package io.lockchaos.serve;
