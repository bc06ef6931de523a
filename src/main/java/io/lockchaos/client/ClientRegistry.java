package io.lockchaos.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/** The handles of a run's workers, for the nemesis to pick targets from. Thread-safe. */
public final class ClientRegistry {
    private final List<ClientHandle> handles;

    public ClientRegistry(int workers) {
        List<ClientHandle> h = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            h.add(new ClientHandle(i));
        }
        this.handles = List.copyOf(h);
    }

    public List<ClientHandle> all() {
        return handles;
    }

    public ClientHandle worker(int w) {
        return handles.get(w);
    }

    /** A random worker that is in {@code phase} right now. */
    public Optional<ClientHandle> anyIn(ClientHandle.Phase phase, SplittableRandom random) {
        List<ClientHandle> in = handles.stream().filter(h -> h.phase() == phase).toList();
        return in.isEmpty() ? Optional.empty() : Optional.of(in.get(random.nextInt(in.size())));
    }

    /** The worker that has been in {@code phase} longest: for FIFO locks, the waiter next in line. */
    public Optional<ClientHandle> longestIn(ClientHandle.Phase phase) {
        return handles.stream().filter(h -> h.phase() == phase)
                .min(java.util.Comparator.comparingLong(ClientHandle::phaseSince));
    }

    /** The worker whose current process is {@code p}. */
    public Optional<ClientHandle> byProcess(int p) {
        return handles.stream().filter(h -> h.process() == p).findFirst();
    }
}
