package io.lockchaos.cluster;

/**
 * A runner stand-in for {@link NetnsTest}: makes a namespace (at the wall-clock millisecond given, if one is, so that
 * several start together), prints its name, its server's address and whether it was up before that millisecond, and waits to be killed.
 */
public final class NetnsHolder {
    private NetnsHolder() {
    }

    public static void main(String[] args) throws Exception {
        boolean late = false;
        if (args.length > 0) {
            long at = Long.parseLong(args[0]);
            late = System.currentTimeMillis() >= at;
            while (System.currentTimeMillis() < at) {
                Thread.sleep(1);
            }
        }
        Netns ns = Netns.create(1);
        System.out.println(ns.namespace(1));
        System.out.println(ns.address(1));
        System.out.println(late ? "late" : "on time");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
