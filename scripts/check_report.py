# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""check-fabric's checks and their reports: one line each on standard output,
a JSON document and a JUnit XML file for CI systems."""

import json
import os
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from typing import List

PASS, FAIL, SKIPPED = "pass", "fail", "skipped"
VERDICT = {PASS: "ok  ", FAIL: "FAIL", SKIPPED: "skip"}


@dataclass
class Check:
    """One named check: its status, a one-line message and detail lines."""
    name: str
    status: str
    message: str
    details: List[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self):
        text = "%s %s: %s" % (VERDICT[self.status], self.name, self.message)
        return "\n".join([text] + ["  " + d for d in self.details])


def failed(checks):
    return [c.name for c in checks if c.status == FAIL]


def write_atomically(path, text):
    """Writes the whole file or leaves the old one: a temporary file, renamed."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".%s." % os.path.basename(path))
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def json_report(checks, summary):
    """summary: what was checked (fabric, conf, ...) and measured (eBB, ...)."""
    doc = dict(summary)
    doc["passed"] = not failed(checks)
    doc["failed"] = failed(checks)
    doc["checks"] = [asdict(c) for c in checks]
    return json.dumps(doc, indent=2) + "\n"


def junit_report(checks, suite, seconds):
    """JUnit XML: one testsuite, one testcase per check."""
    counts = {s: sum(c.status == s for c in checks) for s in (FAIL, SKIPPED)}
    attrs = {"name": suite, "tests": str(len(checks)), "failures": str(counts[FAIL]),
             "errors": "0", "skipped": str(counts[SKIPPED]), "time": "%.3f" % seconds}
    root = ET.Element("testsuites", attrs)
    ts = ET.SubElement(root, "testsuite", attrs)
    for c in checks:
        case = ET.SubElement(ts, "testcase", {"classname": "check-fabric", "name": c.name,
                                              "time": "%.3f" % c.seconds})
        if c.status == FAIL:
            ET.SubElement(case, "failure", {"message": c.message}).text = "\n".join(
                [c.message] + c.details)
        elif c.status == SKIPPED:
            ET.SubElement(case, "skipped", {"message": c.message})
        elif c.details:
            ET.SubElement(case, "system-out").text = "\n".join(c.details)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
