"""``rigeditor report --junit OUT.xml``: the report as JUnit XML, the format CI servers
show. One test case per chain and per seam (a crack per joint, a collapse per mesh and
joint), in the report's order; a case fails with a ``<failure>`` per gated finding
(its message says what and on which frames), and carries what was found but not gated
as ``<system-out>``. Written atomically by the caller."""
from __future__ import annotations

import xml.etree.ElementTree as ET

_SUITE = {"chain": "chains", "crack": "cracks", "collapse": "collapse"}


def junit_xml(report: dict) -> bytes:
    """The report (``build_report``) as a UTF-8 JUnit XML document."""
    checks = report["checks"]
    failed = sum(any(f["fails"] for f in c["found"]) for c in checks)
    root = ET.Element("testsuites", name="rigeditor report", tests=str(len(checks)), failures=str(failed),
                      errors="0")
    suite = ET.SubElement(root, "testsuite", name=report["project"] or "project", tests=str(len(checks)),
                          failures=str(failed), errors="0", skipped="0")
    props = ET.SubElement(suite, "properties")
    fr = report["frames"]
    for name, value in (("frames", f"{fr['start']}-{fr['end']}" if fr["count"] else "none"),
                        ("fail-on", ",".join(report["fail_on"]) or "none")):
        ET.SubElement(props, "property", name=name, value=value)
    for c in checks:
        case = ET.SubElement(suite, "testcase", classname=f"report.{_SUITE[c['kind']]}", name=c["title"])
        for f in c["found"]:
            if f["fails"]:
                ET.SubElement(case, "failure", message=f["message"], type=f["check"]).text = f["message"]
        shown = [f["message"] for f in c["found"] if not f["fails"]]
        if shown:
            ET.SubElement(case, "system-out").text = "\n".join(f"reported, not failing: {m}" for m in shown)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
