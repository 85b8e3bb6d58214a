# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The everyday tools give no false verdict and leave nothing behind: each
case is a defect seen in check-fabric or compare-engines, rerun with the real
OpenSM on ibsim (or, where no OpenSM is needed, before it would start)."""

import csv
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from check_report import ERROR, FAIL, Check, junit_report
from ibsim_session import IbsimFabric
from psssp_tools import ROOT, binary, generate, psssp_conf, run

SCRIPTS = os.path.join(ROOT, "scripts")


def _script(name, *args, cwd=None, env=None):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, name)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=600, cwd=cwd,
                          env=dict(os.environ, **(env or {})))


def test_check_fabric_reads_only_its_own_run_and_writes_only_its_workdir(tmp_path):
    # A production conf names /var/log/ as dump_files_dir (here: var-log): the
    # harness keeps OpenSM's dumps in its own directory, so the vls=8 layers
    # are found and var-log stays empty. The plain conf then runs in the same
    # workdir: it must fail on its own credit loop, not pass on the layer
    # table the first run left.
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "5x5")  # plain psssp: a loop
    var_log = tmp_path / "var-log"
    var_log.mkdir()
    vls8 = tmp_path / "vls8.conf"
    vls8.write_text(psssp_conf("vls=8") + "qos TRUE\ndump_files_dir %s/\n" % var_log)
    plain = tmp_path / "plain.conf"
    plain.write_text(psssp_conf())
    first = _script("check-fabric", net, "--conf", vls8, "--workdir", tmp_path / "wd")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "(SLs from psssp-layers.dump, VLs from opensm-sl2vl.dump)" in first.stdout
    assert list(var_log.iterdir()) == []
    second = _script("check-fabric", net, "--conf", plain, "--workdir", tmp_path / "wd")
    assert second.returncode == 1, second.stdout + second.stderr
    assert "FAIL credit loops: cycle on VL 0" in second.stdout
    assert "psssp-layers.dump" not in second.stdout
    # Without --workdir the temporary directory goes: the failed run's log is
    # kept next to the JSON report, and the report names that copy.
    report = tmp_path / "plain.json"
    third = _script("check-fabric", net, "--conf", plain, "--json", report)
    assert third.returncode == 1, third.stdout + third.stderr
    kept = tmp_path / "plain.opensm.log"
    assert "psssp tables configured" in kept.read_text()
    failed = [c for c in json.loads(report.read_text())["checks"] if c["status"] == "fail"]
    assert "OpenSM log: %s" % kept in failed[0]["details"]


def _one_big_switch(path, hosts):
    """ibsim net file: one switch of `hosts` ports, a host on each (the first
    record a host: the SM attaches there)."""
    lines = []
    for h in range(1, hosts + 1):
        lines += ['Hca 1 "H-%04d"' % h, '[1] "S-0001"[%d]' % h, ""]
    lines.append('Switch %d "S-0001"' % hosts)
    lines += ['[%d] "H-%04d"[1]' % (h, h) for h in range(1, hosts + 1)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_read_back_keeps_switch_ports_above_127(tmp_path):
    # dump_fts of infiniband-diags 44 drops entries to ports above 127 as
    # "illegal"; the harness reads them back, so the check finds no black hole.
    net = _one_big_switch(tmp_path / "big.net", 140)
    with IbsimFabric(net, tmp_path / "ibsim") as fabric:
        fabric.run_opensm(["-R", "minhop"])
        fts = fabric.dump_fts()
        plain = fabric._tool(["dump_fts"])
        topo = tmp_path / "big.topo"
        topo.write_text(fabric.ibnetdiscover())
    high = [l for l in fts.splitlines() if l.startswith("0x") and int(l.split()[1]) > 127]
    assert len(high) == 140 - 127, fts[-3000:]
    assert not [l for l in plain.splitlines() if l.startswith("0x") and
                int(l.split()[1]) > 127]  # what dump_fts alone prints: the defect is real
    assert "140 valid lids dumped" in fts or "141 valid lids dumped" in fts
    (tmp_path / "big.fts").write_text(fts)
    run([binary("psssp-sim"), "check", topo, "--routes", tmp_path / "big.fts"])


def test_compare_engines_survives_a_bad_opensm_argument_and_any_name(tmp_path):
    # minhop gets an argument OpenSM refuses: its row says why and the other
    # engine is still scored. A Latin-1 name map with an escape sequence
    # reaches no terminal, page or file raw. shift is deterministic: each of
    # its phases runs once, and its mean is exact.
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    lfts = tmp_path / "f.lfts"
    run([binary("psssp-sim"), "route", net, "-o", lfts])
    guids = [l.split(" guid ")[1].split()[0] for l in lfts.read_text().splitlines()
             if l.startswith("Unicast lids")]
    names = tmp_path / "site.map"
    names.write_bytes(b"".join(b'%s "caf\xe9-\x1b[31m%d"\n' % (g.encode(), i)
                               for i, g in enumerate(guids)))
    out = tmp_path / "out"
    res = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare-engines"), net,
                          "--engines", "minhop,psssp", "--opensm-args", "minhop=--no-such-flag",
                          "--node-name-map", names, "--runs", "50", "--pattern", "bisect",
                          "--pattern", "shift", "--out", out, "--no-plot"],
                         capture_output=True, timeout=600)
    stdout, stderr = res.stdout.decode(), res.stderr.decode()
    assert res.returncode == 0, stderr[-3000:]
    assert "Traceback" not in stderr
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    assert rows["minhop"]["outcome"] == "failed"
    assert "unrecognized option '--no-such-flag'" in rows["minhop"]["evidence"]
    assert rows["psssp"]["outcome"] == "configured" and 0 < float(rows["psssp"]["ebb"]) <= 1
    assert b"\x1b" not in res.stdout and "Hot spots" not in stdout  # they go to the files
    assert len(stdout.splitlines()) <= 23, stdout  # with the bound's row and line
    assert "\\x1b[31m" in (out / "results.md").read_text()  # the hot spots name cables
    for f in ("results.md", "results.json", "report.html"):
        assert "\x1b" not in (out / f).read_text(errors="strict"), f
    doc = json.loads((out / "results.json").read_text())
    assert doc["runs_by_pattern"] == {"bisect": 50, "shift": 15}
    assert "50 runs of bisect, all 15 phases of shift" in stdout


def test_check_fabric_gates_mixed_rates_on_the_capacity_ebb(tmp_path):
    # Two 1xSDR cables among 4xSDR ones: the lead metric is the capacity eBB,
    # the one compare-engines leads with; plain:X asks for the other.
    capture = os.path.join(ROOT, "core", "formats", "testdata", "public-1.topo")
    report = tmp_path / "r.json"
    res = _script("check-fabric", capture, "--pattern", "bisect", "--runs", 50,
                  "--min-ebb", "plain:0.01", "--json", report)
    assert res.returncode == 0, res.stdout + res.stderr
    doc = json.loads(report.read_text())
    values = doc["ebb_by_pattern"]["bisect"]
    assert doc["ebb_metric"] == "capacity" and doc["ebb"] == values["capacity_ebb"]
    assert values["capacity_ebb"] < values["ebb"]
    assert "bisect plain eBB %.4f" % values["ebb"] in res.stdout
    # Without a metric the minimum applies to the lead metric, named as such.
    high = _script("check-fabric", capture, "--pattern", "bisect", "--runs", 50,
                   "--min-ebb", "%.4f" % ((values["ebb"] + values["capacity_ebb"]) / 2))
    assert high.returncode == 1 and "bisect capacity eBB" in high.stdout, high.stdout


def test_compare_engines_keep_never_empties_a_directory_it_did_not_make(tmp_path):
    out = tmp_path / "out"
    (out / "work").mkdir(parents=True)
    mine = out / "work" / "notes.txt"
    mine.write_text("the user's\n")
    res = _script("compare-engines", "--topology", "kary-ntree --k 2 --n 2", "--engines",
                  "minhop", "--out", out, "--keep", "--no-plot")
    assert res.returncode == 2 and "did not write" in res.stderr, res.stderr
    assert mine.read_text() == "the user's\n"


def test_daemon_mode_is_refused_before_anything_runs(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 2, "--n", 2)
    cmp = _script("compare-engines", net, "--opensm-args", "minhop=-B", "--engines", "minhop",
                  "--out", tmp_path / "out")
    assert cmp.returncode == 2 and "foreground" in cmp.stderr, cmp.stderr
    chk = _script("check-fabric", net, "--opensm-args=--daemon")
    assert chk.returncode == 2 and "foreground" in chk.stderr, chk.stderr
    conf = tmp_path / "daemon.conf"
    conf.write_text("daemon TRUE\n")
    chk = _script("check-fabric", net, "--conf", conf, "--workdir", tmp_path / "wd")
    assert chk.returncode == 2 and "daemon TRUE" in chk.stderr, chk.stderr


def test_bad_traffic_options_fail_before_opensm_with_reports(tmp_path):
    # An ORCS K the hosts cannot hold, a regex RE2 refuses, a grid too large:
    # refused before OpenSM runs (no OpenSM directory in the workdir), and CI
    # still gets a JSON and a well-formed JUnit report saying why.
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 2, "--n", 2)
    cases = [(["--pattern", "orcs:receivers:100000"], "at most 2"),
             (["--pattern", "bisect", "--hosts-regex", "("], "hosts-regex"),
             (["--pattern", "halo2d", "--grid", "8x8"], "grid")]
    for i, (args, words) in enumerate(cases):
        report, junit, work = tmp_path / ("r%d.json" % i), tmp_path / ("r%d.xml" % i), \
            tmp_path / ("wd%d" % i)
        res = _script("check-fabric", net, *args, "--json", report, "--junit", junit,
                      "--workdir", work)
        assert res.returncode == 2, (args, res.stdout, res.stderr)
        assert words in res.stderr, (args, res.stderr)
        assert not (work / "opensm").exists()
        doc = json.loads(report.read_text())
        assert doc["passed"] is False and words in doc["error"]
        suite = ET.parse(junit).getroot().find("testsuite")
        assert suite.get("errors") == "1"
    cmp = _script("compare-engines", net, "--pattern", "orcs:receivers:100000", "--out",
                  tmp_path / "out")
    assert cmp.returncode == 2 and "at most 2" in cmp.stderr, cmp.stderr


def test_junit_holds_any_name_as_well_formed_xml():
    # Control characters and bytes a UTF-8 decoder could not read (surrogates).
    checks = [Check("routes", FAIL, "switch \"caf\udce9 \x1b[31mred\x07\"", ["\x00 \x0b"]),
              Check("check-fabric", ERROR, "bad \x01 name")]
    text = junit_report(checks, "check-fabric \x02", 1.0)
    suite = ET.fromstring(text.encode("utf-8")).find("testsuite")
    assert (suite.get("failures"), suite.get("errors")) == ("1", "1")
    assert "\\x1b[31m" in text and "\\udce9" in text


def test_psssp_sim_reads_a_fabric_from_a_pipe(tmp_path):
    # A shell's <(command) is a pipe under /dev/fd; a device is still refused.
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 2, "--n", 2)
    sim = binary("psssp-sim")
    piped = subprocess.run(["bash", "-c", '"$0" info <(cat "$1") --json', sim, net],
                           capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["host_ports"] == 4
    device = run([sim, "info", "/dev/zero"], check=False)
    assert device.returncode == 2 and "not a regular file or pipe" in device.stderr
