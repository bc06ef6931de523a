package io.lockchaos.nemesis;

import io.lockchaos.client.ClientHandle;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Interrupts a waiting client's thread inside its acquire call ({@link FaultKind#INTERRUPT}), where an application's
 * executor shutdown or cancelled task would: the acquire may be blocked waiting for a wake-up, or have its request on
 * the wire, and a lock library must then neither hold the lock for a caller it told otherwise nor keep renewing it.
 */
final class InterruptNemesis implements Nemesis {
    /** How long the nemesis looks for a client inside its acquire: a waiter may leave it as it is picked. */
    private static final long REACH_MILLIS = 10_000;

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.INTERRUPT);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        boolean thenRelease = fault.option("release", 0) == 1;
        long deadline = System.nanoTime() + REACH_MILLIS * 1_000_000L;
        if (fault.option("after_release", 0) == 1) {
            awaitRelease(ctx, deadline, fault.option("delay_us", 0));
        }
        while (true) {
            ClientHandle h = ctx.client(fault.target());
            if (h.session().processId() > 0) {
                throw new IllegalStateException("process " + h.process() + " runs in a client agent of its own,"
                        + " whose threads an interrupt cannot reach");
            }
            if (h.interrupt(thenRelease)) {
                Map<String, Object> value = ClientPauseNemesis.whom(fault, h);
                value.put("release", thenRelease);
                return new Started(value, null);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no client was inside its acquire within " + REACH_MILLIS + " ms");
            }
            Thread.sleep(1);
        }
    }

    /**
     * Waits for the next release any worker completes, then up to {@code delayMicros} more (a random part of it):
     * that is when waiters wake and send their acquire again, the moment a request on the wire is interrupted.
     * Spins: a release is a matter of microseconds, which a sleep would overshoot.
     */
    private static void awaitRelease(NemesisContext ctx, long deadline, long delayMicros) {
        long before = releases(ctx);
        while (releases(ctx) == before) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no release within " + REACH_MILLIS + " ms");
            }
            Thread.onSpinWait();
        }
        long until = System.nanoTime() + java.util.concurrent.ThreadLocalRandom.current().nextLong(delayMicros + 1)
                * 1000;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    private static long releases(NemesisContext ctx) {
        long n = 0;
        for (ClientHandle h : ctx.clients().all()) {
            n += h.releases();
        }
        return n;
    }

    @Override
    public void heal(NemesisContext ctx) {
        // an interrupt is over once it reached its thread
    }
}
