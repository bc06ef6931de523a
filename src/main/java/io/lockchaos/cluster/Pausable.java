package io.lockchaos.cluster;

/** A cluster whose servers can be frozen (SIGSTOP) and resumed (SIGCONT). */
public interface Pausable {
    void pause(ServerNode node);

    void resume(ServerNode node);
}
