package io.lockchaos.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check that makes a run's folders on an SSH host private ({@link HostRun#FOLDERS}), run here by this machine's
 * sh as the host's would run it: the run's folder is made afresh and mode 700, and a folder another user planted (a
 * link, a folder that exists already, another owner or mode, a parent others may write) is refused.
 */
class HostRunFoldersTest {
    @TempDir
    Path tmp;

    private static String me() throws Exception {
        return new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(),
                StandardCharsets.US_ASCII).trim();
    }

    /** What the check says for the user's folder {@code top}, its host folder and (unless null) run folder. */
    private static String check(Path top, String run) throws Exception {
        Path base = top.resolve("host-1");
        Process p = new ProcessBuilder("sh", "-c", HostRun.FOLDERS, "sh", top.toString(), base.toString(),
                run == null ? "" : base.resolve(run).toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void theFoldersAreMadePrivateAndTheRunsAfresh() throws Exception {
        Path top = tmp.resolve("lockchaos-ssh-" + me());
        assertEquals("ok", check(top, null));
        assertEquals("ok", check(top, "r1"));
        for (Path p : new Path[] {top, top.resolve("host-1"), top.resolve("host-1/r1")}) {
            assertEquals("rwx------", mode(p), p.toString());
        }
        // a run folder that exists already is not this run's: whoever made it may have put anything there
        assertEquals("refused " + top.resolve("host-1/r1") + ": exists already or cannot be made", check(top, "r1"));
    }

    @Test
    void aLinkOrAFolderOpenToOthersIsRefused() throws Exception {
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path linked = Files.createSymbolicLink(tmp.resolve("linked"), elsewhere);
        assertEquals("refused " + linked + ": is a symbolic link", check(linked, "r1"));
        try (var inside = Files.list(elsewhere)) {
            assertEquals(0, inside.count(), "nothing made through the link");
        }

        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("refused " + open + ": has mode 755, not 700", check(open, "r1"));
        assertFalse(Files.exists(open.resolve("host-1")));

        // a parent any user may write, without the sticky bit: another user could swap the folders below it
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals("refused " + shared + ": is writable by others and not sticky",
                check(shared.resolve("lockchaos-ssh-0"), "r1"));
        assertFalse(Files.exists(shared.resolve("lockchaos-ssh-0")));
    }

    @Test
    void aFolderOrParentOfAnotherUserIsRefused() throws Exception {
        Assumptions.assumeTrue(me().equals("0"), "only root can give a folder to another user");
        Path theirs = Files.createDirectory(tmp.resolve("theirs"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setAttribute(theirs, "unix:uid", 65_534, LinkOption.NOFOLLOW_LINKS);
        assertEquals("refused " + theirs + ": is owned by uid 65534, not by the login user (uid 0)",
                check(theirs, "r1"));

        // a sticky parent, as /tmp is, but another user's: they may still rename what is in it
        Path sticky = Files.createDirectory(tmp.resolve("sticky"));
        Files.setAttribute(sticky, "unix:mode", 01777);
        Files.setAttribute(sticky, "unix:uid", 65_534, LinkOption.NOFOLLOW_LINKS);
        assertEquals("refused " + sticky + ": is owned by uid 65534, neither root nor the login user (uid 0)",
                check(sticky.resolve("lockchaos-ssh-0"), "r1"));
        Files.setAttribute(sticky, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
        assertEquals("ok", check(sticky.resolve("lockchaos-ssh-0"), "r1"), "a sticky folder of root's is fine");
        assertTrue(Files.isDirectory(sticky.resolve("lockchaos-ssh-0/host-1/r1")));
    }
}
