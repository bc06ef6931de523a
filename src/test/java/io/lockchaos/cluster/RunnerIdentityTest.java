package io.lockchaos.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A sweep judges a runner by boot, pid namespace, pid and start time, never by a bare pid. */
class RunnerIdentityTest {
    @Test
    void aRunnerIsGoneOnlyWhenItCertainlyIs() throws Exception {
        String me = RunnerIdentity.current();
        String[] f = me.split("/");
        assertEquals(4, f.length, me);
        assertFalse(RunnerIdentity.gone(me), "this runner lives");
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        long deadPid = p.pid();
        assertTrue(RunnerIdentity.gone(f[0] + "/" + f[1] + "/" + deadPid + "/1"), "a pid that no longer runs");
        assertTrue(RunnerIdentity.gone(f[0] + "/" + f[1] + "/" + f[2] + "/" + (Long.parseLong(f[3]) - 60_000)),
                "a live pid started at another time is another process: the runner is gone");
        assertTrue(RunnerIdentity.gone("another-boot/" + f[1] + "/" + f[2] + "/" + f[3]), "an earlier boot");
        assertFalse(RunnerIdentity.gone(f[0] + "/1/" + deadPid + "/1"), "another pid namespace: not ours to judge");
        assertFalse(RunnerIdentity.gone("lockchaos"), "malformed: never gone");
        assertFalse(RunnerIdentity.gone(null));
    }
}
