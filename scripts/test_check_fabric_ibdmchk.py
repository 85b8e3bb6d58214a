# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""check-fabric --ibdmchk: ibdmchk's verdicts, host to host and with -a, in
the output and both reports beside psssp-sim's; a disagreement or a missing
verdict fails the check; without ibdmchk installed, one error naming the
package and exit status 2."""

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from ibsim_session import SBIN
from psssp_tools import ROOT, generate

SCRIPT = os.path.join(ROOT, "scripts", "check-fabric")


def check_fabric(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, **(env or {})))


@pytest.fixture(scope="module")
def torus(tmp_path_factory):
    d = tmp_path_factory.mktemp("torus")
    return generate("torus", str(d / "t.net"), "--dims", "4x4", "--hosts-per-switch", 2)


def test_lash_verdicts_beside_psssp_sims(torus, tmp_path):
    """lash with its path SLs: no credit loop between hosts for either tool;
    with -a both find the loop of the routes from switches, which carry no
    SLs in the path-SL dump and so run on SL 0."""
    conf = tmp_path / "lash.conf"
    conf.write_text("routing_engine lash\nqos TRUE\n")
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    res = check_fabric(torus, "--conf", conf, "--ibdmchk", "--json", report, "--junit", junit,
                       "--workdir", tmp_path / "work")
    assert res.returncode == 0, res.stdout + res.stderr[-2000:]
    assert "ok   ibdmchk: host-to-host no credit loops; all routes (-a) credit loops; " \
        "psssp-sim agrees (SLs: path SLs from psssp-path-sl.dump; ibdmchk used 2 SLs" \
        in res.stdout, res.stdout
    doc = json.loads(report.read_text())
    found = doc["ibdmchk"]
    assert found["agree"] is True and found["sl_source"].startswith("path SLs")
    assert (found["hosts"]["ibdmchk"], found["hosts"]["psssp_sim"]) == ("none", "none")
    assert (found["all"]["ibdmchk"], found["all"]["psssp_sim"]) == ("loops", "loops")
    assert "-a" in found["all"]["command"] and "-a" not in found["hosts"]["command"]
    assert [c["name"] for c in doc["checks"]] == ["subnet", "routing engine", "routes",
                                                  "credit loops", "ibdmchk", "eBB"]
    case = ET.parse(junit).find(".//testcase[@name='ibdmchk']")
    out = case.find("system-out").text
    assert "host-to-host: ibdmchk no credit loops, psssp-sim no credit loops" in out, out
    assert "all routes (-a): ibdmchk credit loops, psssp-sim credit loops" in out, out
    assert (tmp_path / "work" / "ibdmchk" / "all.out").read_text().count("credit loops") >= 1


def test_without_the_option_no_ibdmchk_check(torus, tmp_path):
    report = tmp_path / "r.json"
    res = check_fabric(torus, "--opensm-args", "-R minhop", "--no-deadlock-check",
                       "--json", report)
    assert res.returncode == 0, res.stdout + res.stderr[-2000:]
    doc = json.loads(report.read_text())
    assert doc["ibdmchk"] is None and "ibdmchk" not in [c["name"] for c in doc["checks"]]


def fake_ibdmchk(bindir, output):
    bindir.mkdir()
    fake = bindir / "ibdmchk"
    fake.write_text("#!/bin/sh\ncat <<'EOF'\n%s\nEOF\nexit 1\n" % output)
    fake.chmod(0o755)
    return {"PATH": "%s:%s" % (bindir, os.environ.get("PATH", ""))}


@pytest.mark.parametrize("output, line", [
    ("-E- credit loops in routing",
     "FAIL ibdmchk: ibdmchk and psssp-sim disagree: host-to-host: ibdmchk credit loops, "
     "psssp-sim no credit loops"),
    ("-I- Parsing subnet file",
     "FAIL ibdmchk: host-to-host: ibdmchk gave no verdict (exit status 1): -I- Parsing "
     "subnet file"),
])
def test_disagreement_or_no_verdict_fails(tmp_path, output, line):
    """An ibdmchk that says otherwise than psssp-sim (here: a fake one on a
    fat tree without credit loops), or says nothing, fails the check."""
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 2, "--n", 2)
    report = tmp_path / "r.json"
    res = check_fabric(net, "--opensm-args", "-R ftree", "--ibdmchk", "--json", report,
                       env=fake_ibdmchk(tmp_path / "bin", output))
    assert res.returncode == 1, res.stdout + res.stderr[-2000:]
    assert line in res.stdout, res.stdout
    assert res.stdout.rstrip().endswith("FAIL: ibdmchk"), res.stdout
    doc = json.loads(report.read_text())
    assert doc["failed"] == ["ibdmchk"]
    if "disagree" in line:
        assert doc["ibdmchk"]["agree"] is False
        assert doc["ibdmchk"]["hosts"] == dict(doc["ibdmchk"]["hosts"], ibdmchk="loops",
                                               psssp_sim="none", agree=False)


def test_missing_ibdmchk_is_refused(tmp_path):
    """Only ibsim on PATH (OpenSM and the diagnostics are in /usr/sbin, which
    check-fabric searches too): ibdmchk is not found; exit 2, one line."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(shutil.which("ibsim"), bindir / "ibsim")
    if shutil.which("ibdmchk", path=os.pathsep.join([str(bindir)] + SBIN)):
        pytest.skip("ibdmchk is installed in an sbin directory")
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 2, "--n", 2)
    res = check_fabric(net, "--ibdmchk", "--json", tmp_path / "r.json",
                       env={"PATH": str(bindir)})
    assert res.returncode == 2, res.stdout + res.stderr
    lines = [l for l in res.stderr.splitlines() if not l.startswith("[")]
    assert lines == ["check-fabric: ibdmchk not found on PATH or in %s (Debian package "
                     "ibutils)" % ", ".join(SBIN)], res.stderr
    assert res.stdout == ""


def test_ibdmchk_needs_the_deadlock_check(torus):
    res = check_fabric(torus, "--ibdmchk", "--no-deadlock-check")
    assert res.returncode == 2 and "--no-deadlock-check" in res.stderr, res.stderr
