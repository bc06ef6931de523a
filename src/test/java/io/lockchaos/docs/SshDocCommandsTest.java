package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the SSH page: its runs on lab hosts (namespaces running sshd) exactly as written, in a
 * working copy of their own. Like the page's commands, it needs root and openssh-server, which {@code .ci/run} installs.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class SshDocCommandsTest {
    @Test
    void theSshPagesCommandsRunAsWritten() throws Exception {
        String why = io.lockchaos.ssh.SshLab.unavailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
        DocCommandsTest.runPages(DocCommandsTest.SSH_PAGES, 5);
    }
}
