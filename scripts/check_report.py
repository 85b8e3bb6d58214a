# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""check-fabric's checks and their reports: one line each on standard output,
a JSON document and a JUnit XML file for CI systems."""

import json
import os
import re
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from typing import List

PASS, FAIL, SKIPPED, ERROR = "pass", "fail", "skipped", "error"
VERDICT = {PASS: "ok  ", FAIL: "FAIL", SKIPPED: "skip", ERROR: "ERR "}

# Characters XML 1.0 cannot hold (and a terminal should not be sent): C0
# controls but tab and newline, DEL and C1 controls, lone surrogates (bytes a
# UTF-8 decoder could not read), and the two non-characters.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def printable(text):
    """text with every character of _UNPRINTABLE written as \\xNN or \\uNNNN."""
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii")
                            if ord(m.group()) < 0x100 else "\\u%04x" % ord(m.group()), text)


@dataclass
class Check:
    """One named check: its status, a one-line message and detail lines."""
    name: str
    status: str
    message: str
    details: List[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self):
        text = "%s %s: %s" % (VERDICT[self.status], self.name, printable(self.message))
        return "\n".join([text] + ["  " + printable(d) for d in self.details])


def failed(checks):
    return [c.name for c in checks if c.status in (FAIL, ERROR)]


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
    counts = {s: sum(c.status == s for c in checks) for s in (FAIL, SKIPPED, ERROR)}
    attrs = {"name": printable(suite), "tests": str(len(checks)),
             "failures": str(counts[FAIL]), "errors": str(counts[ERROR]),
             "skipped": str(counts[SKIPPED]), "time": "%.3f" % seconds}
    root = ET.Element("testsuites", attrs)
    ts = ET.SubElement(root, "testsuite", attrs)
    for c in checks:
        case = ET.SubElement(ts, "testcase", {"classname": "check-fabric", "name": c.name,
                                              "time": "%.3f" % c.seconds})
        message = printable(c.message)
        text = printable("\n".join([c.message] + c.details))
        if c.status in (FAIL, ERROR):
            ET.SubElement(case, "failure" if c.status == FAIL else "error",
                          {"message": message}).text = text
        elif c.status == SKIPPED:
            ET.SubElement(case, "skipped", {"message": message})
        elif c.details:
            ET.SubElement(case, "system-out").text = printable("\n".join(c.details))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
