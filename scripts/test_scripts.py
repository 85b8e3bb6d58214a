"""compare-engines and check-fabric end to end on small fabrics, with the real
OpenSM on ibsim."""

import csv
import os
import subprocess
import sys

from psssp_tools import ROOT, generate, psssp_conf

SCRIPTS = os.path.join(ROOT, "scripts")


def _script(name, *args, cwd_tmp=None):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, name)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=900, cwd=cwd_tmp)


def test_compare_engines_reports_every_engine(tmp_path):
    out = tmp_path / "out"
    res = _script("compare-engines", "--topology", "kary-ntree --k 4 --n 2",
                  "--engines", "minhop,ftree,sssp,psssp", "--runs", 200, "--out", out)
    assert res.returncode == 0, res.stderr[-3000:]
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    assert set(rows) == {"minhop", "ftree", "sssp", "psssp"}
    for name, row in rows.items():
        assert row["outcome"] == "configured", (name, row["evidence"])
        assert 0 < float(row["ebb"]) <= 1
        assert row["check_ok"] == "True"
        assert row["deadlock_free"] == "yes"  # trees route without credit loops
    assert "root_guid_file" in rows["ftree"]["config"]
    assert (out / "ebb.png").stat().st_size > 1000
    assert "| psssp | configured |" in (out / "results.md").read_text()


def test_compare_engines_records_failures_honestly(tmp_path):
    # dfsssp needs 9 VLs on this torus, ibsim's switches offer 8; the outcome says so.
    out = tmp_path / "out"
    res = _script("compare-engines", "--topology", "torus --dims 8x8 --hosts-per-switch 4",
                  "--engines", "dfsssp,psssp", "--runs", 50, "--out", out, "--no-plot",
                  "--psssp-options", "vls=8")
    assert res.returncode == 0, res.stderr[-3000:]
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    assert rows["dfsssp"]["outcome"] != "configured"
    assert "Not enough VLs" in rows["dfsssp"]["evidence"]
    assert rows["psssp"]["outcome"] == "configured"
    assert rows["psssp"]["deadlock_free"] == "yes"


def test_check_fabric_passes_and_fails(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    conf = tmp_path / "opensm.conf"
    conf.write_text(psssp_conf())
    ok = _script("check-fabric", net, "--conf", conf, "--min-ebb", "0.3", "--runs", 200)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "PASS" in ok.stdout and "psssp tables configured" in ok.stdout
    high = _script("check-fabric", net, "--conf", conf, "--min-ebb", "0.999", "--runs", 200)
    assert high.returncode == 1 and "FAIL eBB" in high.stdout


def test_check_fabric_finds_credit_loops(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4")
    res = _script("check-fabric", net, "--opensm-args", "-R minhop")
    assert res.returncode == 1
    assert "credit loop" in res.stdout


def test_check_fabric_fails_when_the_engine_falls_back(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    conf = tmp_path / "opensm.conf"
    conf.write_text(psssp_conf("threads=many"))
    res = _script("check-fabric", net, "--conf", conf, "--workdir", "rel-work",
                  cwd_tmp=tmp_path)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "fell back" in res.stdout
    ok = _script("check-fabric", net, "--conf", conf, "--allow-fallback")
    assert ok.returncode == 0, ok.stdout + ok.stderr


def test_check_fabric_verifies_psssp_layers(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4")
    conf = tmp_path / "opensm.conf"
    conf.write_text(psssp_conf("vls=4") + "qos TRUE\n")
    res = _script("check-fabric", net, "--conf", conf)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "SLs from layer table" in res.stdout and ": none;" in res.stdout


def test_check_fabric_rejects_missing_files(tmp_path):
    res = _script("check-fabric", tmp_path / "nope.net")
    assert res.returncode == 2 and "no such file" in res.stderr
