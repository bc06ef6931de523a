package io.lockchaos.cluster;

/** A cluster whose servers can be frozen (SIGSTOP) and resumed (SIGCONT). */
public interface Pausable {
    void pause(ZkNode node);

    void resume(ZkNode node);
}
