/**
 * Redis locks under the same harness as ZooKeeper's: {@link io.lockchaos.redis.RedisServers} runs independent
 * {@code redis-server} instances as child processes on 127.0.0.1 that die with the runner (kill -9 and restart, SIGSTOP
 * and a wall-clock jump per instance through a small LD_PRELOAD library), and {@link io.lockchaos.redis.RedisLocks}
 * opens the recipes: the tutorial's RedLock with its defects, Redlock as specified, and one instance's SET NX PX. Their
 * grants carry the lock's value and no fencing token, because Redis locks have none.
 */
package io.lockchaos.redis;
