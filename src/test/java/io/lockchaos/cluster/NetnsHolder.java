package io.lockchaos.cluster;

/**
 * A runner stand-in for {@link NetnsTest}: makes a namespace (at the wall-clock millisecond given, if one is, so that
 * several start together), prints its name and then its server's address, and waits to be killed.
 */
public final class NetnsHolder {
    private NetnsHolder() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            long at = Long.parseLong(args[0]);
            while (System.currentTimeMillis() < at) {
                Thread.sleep(1);
            }
        }
        Netns ns = Netns.create(1);
        System.out.println(ns.namespace(1));
        System.out.println(ns.address(1));
        System.out.flush();
        Thread.sleep(120_000);
    }
}
