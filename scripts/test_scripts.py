# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines and check-fabric end to end on small fabrics, with the real
OpenSM on ibsim."""

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from psssp_tools import ROOT, generate, psssp_conf

SCRIPTS = os.path.join(ROOT, "scripts")


def _script(name, *args, cwd_tmp=None, env=None):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, name)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=900, cwd=cwd_tmp,
                          env=dict(os.environ, **(env or {})))


def test_compare_engines_reports_every_engine(tmp_path):
    out = tmp_path / "out"
    res = _script("compare-engines", "--topology", "kary-ntree --k 4 --n 2",
                  "--engines", "minhop,ftree,sssp,psssp", "--runs", 200, "--out", out,
                  "--pattern", "bisect", "--pattern", "shift", "--maxmin")
    assert res.returncode == 0, res.stderr[-3000:]
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    assert set(rows) == {"minhop", "ftree", "sssp", "psssp"}
    for name, row in rows.items():
        assert row["outcome"] == "configured", (name, row["evidence"])
        assert 0 < float(row["ebb"]) <= 1
        assert row["check_ok"] == "True"
        # Host-to-host routes on a tree close no credit loop; sssp's routes
        # between switch LIDs (not up*/down*) do, and the column says so.
        if name == "sssp":
            assert row["deadlock_free"].startswith("hosts only; all routes: NO (credit loop"), row
        else:
            assert row["deadlock_free"] == "yes", (name, row["deadlock_free"])
        assert float(row["routing_s"]) >= 0
    assert "root_guid_file" in rows["ftree"]["config"]
    # A column per further pattern; max-min fair shares are never below the plain ones.
    for name, row in rows.items():
        assert 0 < float(row["ebb_shift"]) <= 1 and 0 < float(row["maxmin_ebb_shift"]) <= 1
        assert float(row["maxmin_ebb"]) >= float(row["ebb"]) - 1e-9, (name, row)
    # shift draws nothing at random: each of its 15 phases once, an exact mean.
    assert "200 runs of bisect, all 15 phases of shift, seed 1; scoring options: --maxmin" \
        in res.stdout
    # One rate everywhere: the plain eBB leads, the capacity eBB equals it.
    header = (out / "results.csv").read_text().splitlines()[0].split(",")
    assert header.index("ebb") < header.index("capacity_ebb")
    for row in rows.values():
        assert abs(float(row["capacity_ebb"]) - float(row["ebb"])) < 1e-9
    # The plugin's own log record: its computation time, only for psssp.
    assert float(rows["psssp"]["engine_own_s"]) > 0
    assert all(rows[e]["engine_own_s"] == "" for e in ("minhop", "ftree", "sssp"))
    assert (out / "ebb.png").stat().st_size > 1000
    assert "| psssp | configured |" in (out / "results.md").read_text()


@pytest.mark.parametrize("spec", ["--chassis 2 --bundle 3", "--chassis 3 --join mesh --bundle 6"])
def test_compare_engines_gives_updn_the_fabric_chips_of_a_director(tmp_path, spec):
    # Without the roots, updn finds none by min hop and falls back. Roots of
    # one chassis (a 3-cable bundle leaves line chips without one), of all.
    out = tmp_path / "out"
    res = _script("compare-engines", "--topology", "director --model is5100 " + spec,
                  "--engines", "updn", "--runs", 50, "--out", out, "--no-plot", "--keep")
    assert res.returncode == 0, res.stderr[-3000:]
    row = next(csv.DictReader(open(out / "results.csv")))
    assert row["outcome"] == "configured", row["evidence"]
    assert "root_guid_file" in row["config"]
    assert row["check_ok"] == "True" and row["deadlock_free"] == "yes"
    roots = (out / "work" / "roots.guids").read_text().split()
    assert len(roots) == (3 if "bundle 3" in spec else 9)


def test_compare_engines_keep_starts_each_run_afresh(tmp_path):
    # A kept run into the OUT of a kept run on another fabric: the tree's
    # ibnetdiscover output, roots and OpenSM directories are gone, and the
    # torus is checked and scored on its own topology.
    out = tmp_path / "out"
    tree = _script("compare-engines", "--topology", "kary-ntree --k 4 --n 2", "--engines",
                   "psssp", "--runs", 50, "--out", out, "--no-plot", "--keep")
    assert tree.returncode == 0, tree.stderr[-3000:]
    assert (out / "work" / "roots.guids").exists()
    res = _script("compare-engines", "--topology", "torus --dims 3x3 --hosts-per-switch 2",
                  "--engines", "psssp", "--runs", 50, "--out", out, "--no-plot", "--keep")
    assert res.returncode == 0, res.stderr[-3000:]
    row = next(csv.DictReader(open(out / "results.csv")))
    assert row["outcome"] == "configured", row["evidence"]
    assert row["check_ok"] == "True" and 0 < float(row["ebb"]) <= 1
    assert "(18 hosts)" in (out / "results.md").read_text()
    topo = (out / "work" / "fabric.topo").read_text()
    assert len(re.findall(r"^Switch\s", topo, re.M)) == 9
    assert not (out / "work" / "roots.guids").exists()


def test_compare_engines_on_a_mixed_rate_capture_leads_with_capacity_ebb(tmp_path):
    # Two 1xSDR cables among 4xSDR ones: the plain eBB treats them alike.
    capture = os.path.join(ROOT, "core", "formats", "testdata", "public-1.topo")
    out = tmp_path / "out"
    res = _script("compare-engines", capture, "--engines", "minhop,psssp", "--runs", 100,
                  "--out", out, "--no-plot")
    assert res.returncode == 0, res.stderr[-3000:]
    md = (out / "results.md").read_text()
    assert "Fabric: replayed from the capture, cables by rate: 1xSDR 2, 4xSDR 5." in md
    header = next(line for line in md.splitlines() if line.startswith("| engine"))
    # The same columns as on any fabric; the header says which metric leads.
    assert header.index("| eBB bisect |") < header.index("| capacity eBB bisect (lead) |"), \
        header
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    for row in rows.values():
        # A 1x cable carries a quarter of a 4x one: the shares weighed by rate
        # are lower than the plain ones.
        assert 0 < float(row["capacity_ebb"]) < float(row["ebb"]) <= 1, row


TREE_CAPTURE = os.path.join(ROOT, "core", "formats", "testdata", "tree2.ibnetdiscover")


def test_ftree_and_updn_get_the_roots_of_a_captured_tree(tmp_path):
    # Without root GUIDs, ftree refuses a capture (ERR AB2B: more than one root).
    out = tmp_path / "out"
    res = _script("compare-engines", TREE_CAPTURE, "--engines", "ftree,updn", "--runs", 50,
                  "--out", out, "--no-plot", "--opensm-args", "updn=--lmc 0")
    assert res.returncode == 0, res.stderr[-3000:]
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    for name in ("ftree", "updn"):
        assert rows[name]["outcome"] == "configured", rows[name]["evidence"]
        assert "root_guid_file" in rows[name]["config"], rows[name]["config"]
        assert rows[name]["check_ok"] == "True"
    assert rows["updn"]["config"].endswith("; --lmc 0")

    conf = tmp_path / "ftree.conf"
    conf.write_text("routing_engine ftree\n")
    res = _script("check-fabric", TREE_CAPTURE, "--conf", conf)
    assert res.returncode == 0, res.stdout + res.stderr[-2000:]
    assert "ok   routing engine: ftree" in res.stdout


def test_compare_engines_records_failures_honestly(tmp_path):
    # dfsssp needs 9 VLs on this torus, ibsim's switches offer 8; the outcome says so.
    out = tmp_path / "out"
    res = _script("compare-engines", "--topology", "torus --dims 8x8 --hosts-per-switch 4",
                  "--engines", "dfsssp,minhop,psssp", "--runs", 50, "--out", out, "--no-plot",
                  "--psssp-options", "vls=8")
    assert res.returncode == 0, res.stderr[-3000:]
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    assert rows["dfsssp"]["outcome"] != "configured"
    assert "Not enough VLs" in rows["dfsssp"]["evidence"]
    # It fell back to minhop, which has its own row: whether the tables are
    # minhop's is said (OpenSM's fallback balances against dfsssp's path counts).
    assert rows["dfsssp"]["outcome"] == "fell back to minhop"
    assert re.search(r"its tables (are minhop's own row's|differ from minhop's own row in \d+ "
                     r"entries)", rows["dfsssp"]["evidence"]), rows["dfsssp"]["evidence"]
    assert rows["psssp"]["outcome"] == "configured"
    assert rows["psssp"]["deadlock_free"] == "yes"
    assert 2 <= int(rows["psssp"]["layers_needed"]) <= 8  # a torus needs more than one
    # Its layer table spreads the routes over every layer it may use.
    assert int(rows["psssp"]["layers"]) == 8, rows["psssp"]
    assert rows["psssp"]["sl_source"] == "layer table (8 SLs)"


def test_check_fabric_passes_and_fails(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    conf = tmp_path / "opensm.conf"
    conf.write_text(psssp_conf())
    temp = tmp_path / "tmp"
    temp.mkdir()
    ok = _script("check-fabric", net, "--conf", conf, "--min-ebb", "0.3", "--runs", 200,
                 env={"TMPDIR": str(temp)})
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.endswith("\nPASS\n") and "psssp tables configured" in ok.stdout
    assert "ok   eBB: " in ok.stdout
    assert "OpenSM routing" in ok.stderr and "scoring eBB" in ok.stderr  # progress
    high = _script("check-fabric", net, "--conf", conf, "--min-ebb", "0.999", "--runs", 200,
                   env={"TMPDIR": str(temp)})
    assert high.returncode == 1 and "FAIL eBB" in high.stdout
    assert high.stdout.endswith("\nFAIL: eBB\n"), high.stdout
    # A minimum per pattern: shift passes, bisect does not, and the report says which.
    report = tmp_path / "r.json"
    per = _script("check-fabric", net, "--conf", conf, "--min-ebb", "shift=0.99", "--min-ebb",
                  "bisect=0.999", "--runs", 200, "--json", report, env={"TMPDIR": str(temp)})
    assert per.returncode == 1, per.stdout + per.stderr
    assert "below the minimum: bisect " in per.stdout and "below the minimum: shift" not in \
        per.stdout
    data = json.loads(report.read_text())
    assert data["patterns"] == ["shift", "bisect"]
    assert data["ebb_by_pattern"]["shift"]["ebb"] >= 0.99 > data["ebb_by_pattern"]["bisect"]["ebb"]
    assert list(temp.iterdir()) == []  # no psssp-check-* left behind


def test_check_fabric_names_the_credit_loop_and_writes_reports(tmp_path):
    # minhop on a torus: every route delivers, but the routes close a credit loop.
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4")
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    res = _script("check-fabric", net, "--opensm-args", "-R minhop", "--json", report,
                  "--junit", junit)
    assert res.returncode == 1
    assert "ok   routes: 240 of 240 host pairs delivered" in res.stdout
    assert "FAIL credit loops: cycle on VL 0" in res.stdout
    assert res.stdout.endswith("\nFAIL: credit loops\n"), res.stdout

    doc = json.loads(report.read_text())
    assert doc["passed"] is False and doc["failed"] == ["credit loops"]
    status = {c["name"]: c["status"] for c in doc["checks"]}
    assert status == {"subnet": "pass", "routing engine": "pass", "routes": "pass",
                      "credit loops": "fail", "eBB": "skipped"}
    assert doc["route_check"]["deadlock"]["deadlock_free"] is False
    assert doc["version"] and doc["fabric"] == str(net)

    suite = ET.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("5", "1", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["credit loops"].find("failure").get("message").startswith("cycle on VL 0")
    assert cases["routes"].find("failure") is None
    assert cases["eBB"].find("skipped") is not None


def test_check_fabric_fails_when_the_engine_falls_back(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    conf = tmp_path / "opensm.conf"
    conf.write_text(psssp_conf("threads=many"))
    res = _script("check-fabric", net, "--conf", conf, "--workdir", "rel-work",
                  cwd_tmp=tmp_path)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "FAIL routing engine: psssp failed, OpenSM fell back to minhop" in res.stdout
    assert res.stdout.endswith("\nFAIL: routing engine\n"), res.stdout
    assert (tmp_path / "rel-work" / "lfts.fts").stat().st_size > 0  # --workdir is kept
    ok = _script("check-fabric", net, "--conf", conf, "--allow-fallback")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "(allowed by --allow-fallback)" in ok.stdout


def test_check_fabric_verifies_psssp_layers(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4")
    conf = tmp_path / "opensm.conf"
    conf.write_text(psssp_conf("vls=4") + "qos TRUE\n")
    res = _script("check-fabric", net, "--conf", conf)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ok   credit loops: none; " in res.stdout
    assert "(SLs from psssp-layers.dump, VLs from opensm-sl2vl.dump)" in res.stdout


def test_check_fabric_rejects_missing_files(tmp_path):
    res = _script("check-fabric", tmp_path / "nope.net")
    assert res.returncode == 2 and "no such file" in res.stderr


def _children(pid):
    """{pid: program} of a process's children."""
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        pids = [int(p) for p in f.read().split()]
    programs = {}
    for child in pids:
        try:
            with open("/proc/%d/cmdline" % child) as f:
                programs[child] = os.path.basename(f.read().split("\0")[0])
        except FileNotFoundError:
            pass
    return programs


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_check_fabric_cleans_up_after_a_signal(tmp_path, signum):
    # A CI time limit sends SIGTERM, a dropped ssh session SIGHUP: ibsim and
    # OpenSM stop, the temporary directory goes. The fabric is large enough
    # that OpenSM is still running.
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 8, "--n", 3)
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc = subprocess.Popen([sys.executable, os.path.join(SCRIPTS, "check-fabric"), net],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(temp)))
    try:
        deadline = time.monotonic() + 60
        started = {}
        while sorted(started.values()) != ["ibsim", "opensm"] and time.monotonic() < deadline:
            time.sleep(0.02)  # until ibsim and OpenSM both run
            started = _children(proc.pid)
        assert sorted(started.values()) == ["ibsim", "opensm"], started
        assert list(temp.iterdir())  # the work directory exists meanwhile
        proc.send_signal(signum)
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signum
    assert "Traceback" not in proc.stderr.read()
    assert not [pid for pid in started if _alive(pid)]
    assert list(temp.iterdir()) == []


# -- report.html in a real browser -------------------------------------------

PROBE = """<script>window.addEventListener("load", () => {
  const images = [...document.images];
  const b = document.body;
  b.setAttribute("data-images", images.length);
  b.setAttribute("data-loaded", images.filter(i => i.complete && i.naturalWidth > 0).length);
  b.setAttribute("data-rows", document.querySelectorAll("table.results tbody tr").length);
  // Images wider than the page's text column are shrunk, their labels with them.
  b.setAttribute("data-wide", images.filter(i => i.naturalWidth > b.clientWidth).length);
  b.setAttribute("data-best", document.querySelectorAll("table.results td.best").length);
});</script></body>"""


def _browser():
    for name in ("chromium", "chromium-headless-shell", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no chromium (scripts/install-deps.sh installs it)")


def _open_in_browser(page, tmp_path, extra=""):
    """Opens a copy of `page` with a probe script in headless Chromium, in a
    1500 px wide window: (images, images loaded, result rows, images wider
    than the page, best cells marked), as the rendered DOM tells."""
    probe = tmp_path / ("probe-%d.html" % len(list(tmp_path.glob("probe-*"))))
    probe.write_text(page.read_text().replace("</body>", extra + PROBE))
    res = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu",
                          "--disable-dev-shm-usage", "--virtual-time-budget=10000",
                          "--window-size=1500,1000",
                          "--dump-dom", probe.as_uri()], capture_output=True, text=True,
                         timeout=300)
    body = re.search(r'<body data-images="(\d+)" data-loaded="(\d+)" data-rows="(\d+)" '
                     r'data-wide="(\d+)" data-best="(\d+)"', res.stdout)
    assert body, (res.returncode, res.stdout[:500], res.stderr[-2000:])
    return tuple(int(g) for g in body.groups())


def test_compare_engines_report_page_opens_offline_with_every_plot(tmp_path):
    out = tmp_path / "out"
    # The site's names for the four spines (psssp-topo's GUIDs 0x5053570000000004..7).
    names = tmp_path / "site.map"
    names.write_text("".join('0x505357000000000%d "core-%d"\n' % (4 + i, i) for i in range(4)))
    res = _script("compare-engines", "--topology", "kary-ntree --k 4 --n 2",
                  "--engines", "minhop,psssp", "--runs", 100, "--out", out, "--hot-spots", 3,
                  "--node-name-map", names)
    assert res.returncode == 0, res.stderr[-3000:]
    report = out / "report.html"
    assert res.stdout.rstrip().splitlines()[-1] == "report: %s" % report
    pngs = ["ebb.png", "cable-flows.png", "cable-routes.png", "ebb-histogram.png",
            "topology.png"]
    for png in pngs:
        assert (out / png).read_bytes().startswith(b"\x89PNG"), png
    page = report.read_text()
    # Self-contained: every image inline, nothing fetched.
    assert page.count('src="data:image/png;base64,') == len(pngs)
    assert not re.search(r'(src|href)="(?!data:)', page)
    assert "psssp-sim score" in page and "psssp-sim check" in page  # the commands run
    images, loaded, rows, wide, best = _open_in_browser(report, tmp_path)
    assert (images, loaded, rows, wide) == (len(pngs), len(pngs), 2, 0)
    assert best >= 1  # the best engine's value is marked
    # The probe can tell a broken image (a PNG cut short does not load) and
    # one wider than the page.
    broken = '<img src="data:image/png;base64,iVBORw0KGgo=">'
    assert _open_in_browser(report, tmp_path, broken)[:3] == (len(pngs) + 1, len(pngs), 2)
    wider = ("<img src=\"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' "
             "width='2000' height='10'/>\">")
    assert _open_in_browser(report, tmp_path, wider)[3] == 1

    # Hot spots: the 3 busiest switch cables per engine, named by description (the
    # site's name where the map has one) and port; every switch cable has a spine end.
    data = json.load(open(out / "results.json"))
    assert [e["engine"] for e in data["engines"]] == ["minhop", "psssp"]
    for engine in ("minhop", "psssp"):
        spots = data["hot_spots"][engine]
        assert len(spots) == 3 and all(s["kind"] == "switch" for s in spots)
        assert [s["mean_flows"] for s in spots] == sorted((s["mean_flows"] for s in spots),
                                                          reverse=True)
        for s in spots:
            assert re.fullmatch(r'"(leaf|core)-\d" port \d -> "(leaf|core)-\d" port \d',
                                s["cable"]) and "core-" in s["cable"], s
        assert spots[0]["routes"] > 0
    assert data["hot_spots"]["psssp"][0]["cable"] in (out / "results.md").read_text()
    assert len(data["engines"][1]["by_pattern"]["bisect"]["histogram"]) > 1
    assert "core-0" in (out / "topology.dot").read_text()


def test_compare_engines_on_a_one_host_capture_reports_instead_of_failing(tmp_path):
    # public-4.topo has a single cabled host port: nothing to score, not an error.
    capture = os.path.join(ROOT, "core", "formats", "testdata", "public-4.topo")
    out = tmp_path / "out"
    res = _script("compare-engines", capture, "--engines", "minhop,psssp", "--runs", 10,
                  "--out", out, "--no-plot")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    for row in rows.values():
        assert row["outcome"] == "configured" and row["check_ok"] == "True"
        assert row["ebb"] == "" and "1 host port: no traffic to score" in row["evidence"]
