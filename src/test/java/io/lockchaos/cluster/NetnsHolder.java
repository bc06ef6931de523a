package io.lockchaos.cluster;

/** A runner stand-in for {@link NetnsTest}: makes a namespace, prints its name, and waits to be killed. */
public final class NetnsHolder {
    private NetnsHolder() {
    }

    public static void main(String[] args) throws Exception {
        Netns ns = Netns.create(1);
        System.out.println(ns.namespace(1));
        System.out.flush();
        Thread.sleep(120_000);
    }
}
