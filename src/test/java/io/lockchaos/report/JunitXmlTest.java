package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class JunitXmlTest {
    @TempDir
    Path dir;

    static CheckResult composed() {
        Anomaly overlap = Anomaly.of(AnomalyKind.DOUBLE_HOLDER, "/l", List.of(7L, 5L), 10, 20,
                "processes 1 and 2 both held /l <at once> & \u0001 said so", Map.of());
        return new CheckResult("lock", io.lockchaos.checker.Verdict.INVALID, List.of(), Map.of(), null, List.of(
                CheckResult.of("mutual-exclusion", List.of(overlap), Map.of("violations", 1)),
                CheckResult.of("fencing", List.of(), Map.of()),
                CheckResult.unknown("lost-updates", "no final read of /set", Map.of())));
    }

    private Document write(CheckResult r) throws Exception {
        Path f = dir.resolve("junit.xml");
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("recipe", "mutex");
        about.put("ops", 12);
        about.put("warnings", List.of("ignored: not a scalar"));
        JunitXml.write(f, "double-grant", r, about);
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f.toFile());
    }

    @Test
    void oneTestCasePerCheckerWithFailureForInvalidAndErrorForUnknown() throws Exception {
        Document d = write(composed());
        Element suite = d.getDocumentElement();
        assertEquals("testsuite", suite.getTagName());
        assertEquals("lockchaos.double-grant", suite.getAttribute("name"));
        assertEquals("3", suite.getAttribute("tests"));
        assertEquals("1", suite.getAttribute("failures"));
        assertEquals("1", suite.getAttribute("errors"));
        NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals(3, cases.getLength());
        Element me = (Element) cases.item(0);
        assertEquals("mutual-exclusion", me.getAttribute("name"));
        Element failure = (Element) me.getElementsByTagName("failure").item(0);
        assertEquals("invalid: 1 anomaly: double-holder", failure.getAttribute("message"));
        assertTrue(failure.getTextContent().contains("double-holder (ops [7, 5]): processes 1 and 2 both held /l"
                + " <at once> & ? said so"), failure.getTextContent());
        Element fencing = (Element) cases.item(1);
        assertEquals(0, fencing.getChildNodes().getLength(), "a valid checker passes: no child elements");
        Element unknown = (Element) ((Element) cases.item(2)).getElementsByTagName("error").item(0);
        assertEquals("unknown: no final read of /set", unknown.getAttribute("message"));
        NodeList props = suite.getElementsByTagName("property");
        assertEquals(2, props.getLength(), "scalar about entries only");
        assertEquals("recipe", ((Element) props.item(0)).getAttribute("name"));
        assertEquals("mutex", ((Element) props.item(0)).getAttribute("value"));
    }

    @Test
    void aValidResultHasNoFailuresAndASingleCheckerIsItsOwnCase() throws Exception {
        Element suite = write(CheckResult.of("linearizability", List.of(), Map.of())).getDocumentElement();
        assertEquals("1", suite.getAttribute("tests"));
        assertEquals("0", suite.getAttribute("failures"));
        assertEquals("0", suite.getAttribute("errors"));
        assertEquals("linearizability", ((Element) suite.getElementsByTagName("testcase").item(0)).getAttribute("name"));
        assertEquals(0, suite.getElementsByTagName("failure").getLength());
    }
}
