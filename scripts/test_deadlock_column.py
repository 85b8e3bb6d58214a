# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines' deadlock column for SL-based engines: the SLs each path
gets from the running SM (psssp_pathsl plugin) and OpenSM's SL-to-VL maps go
through the same credit-loop check as psssp's layers."""

import csv
import os
import re
import subprocess
import sys

import ibdmchk
from psssp_tools import ROOT, binary, generate, run


def test_lash_and_dfsssp_are_verified_with_their_own_sls(tmp_path):
    out = tmp_path / "out"
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "compare-engines"), "--topology",
         "torus --dims 4x4 --hosts-per-switch 2", "--engines", "minhop,lash,dfsssp",
         "--runs", "20", "--out", str(out), "--no-plot", "--keep"],
        capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    rows = {r["engine"]: r for r in csv.DictReader(open(out / "results.csv"))}
    for name in ("lash", "dfsssp"):
        row = rows[name]
        assert row["outcome"] == "configured", row["evidence"]
        assert row["sl_source"].startswith("path SLs"), row["sl_source"]
        # The dump has the SLs of the paths from host ports only: the column
        # gives the host-to-host verdict and says so.
        assert row["deadlock_free"] == "yes (host pairs; SLs of routes from switches "\
            "unknown)", row["deadlock_free"]
        # A torus ring needs a second layer: the SLs really were read.
        assert int(row["layers"]) >= 2 and int(row["vls"]) >= 2, row
    assert 2 <= int(rows["dfsssp"]["layers_needed"]) <= int(rows["dfsssp"]["layers"])
    assert rows["lash"]["layers_needed"] == rows["lash"]["layers"]
    # minhop has no SLs: one layer, and the torus ring closes a credit loop.
    assert rows["minhop"]["layers"] == "1" and rows["minhop"]["sl_source"] == "SL 0"
    assert rows["minhop"]["deadlock_free"].startswith("NO (credit loop on VL 0 over ")

    # The same lash routes read on one SL: the check finds lash's cycle.
    work = out / "work"
    topo, routes = work / "fabric.topo", work / "routes" / "lash.fts"
    sl_file = work / "opensm" / "lash" / "psssp-path-sl.dump"
    single = run([binary("psssp-sim"), "check", topo, "--routes", routes, "--deadlock"],
                 check=False)
    assert single.returncode == 1 and "credit loop on VL 0 over" in single.stdout, single.stdout
    # (The dump has the SLs of the host ports' routes only: the host pairs.)
    layered = run([binary("psssp-sim"), "check", topo, "--routes", routes, "--deadlock",
                   "--deadlock-scope", "hosts", "--sl-file", sl_file, "--sl2vl",
                   work / "opensm" / "lash" / "opensm-sl2vl.dump"], check=False)
    assert layered.returncode == 0 and ": none;" in layered.stdout, layered.stdout[-2000:]

    # --keep also wrote ibdmchk's path-SL and SL-to-VL files of the SL-based
    # engines beside their tables, and ibdmchk reads them with OpenSM's own
    # subnet.lst and fdbs: no credit loop between hosts, as in the column.
    kept = work / "routes"
    assert not (kept / "minhop-path-sl.ibdmchk").exists()
    for name in ("lash", "dfsssp"):
        osm = work / "opensm" / name
        assert ibdmchk.run(str(tmp_path), osm / "opensm-subnet.lst", osm / "opensm.fdbs",
                           False, kept / (name + "-path-sl.ibdmchk"),
                           kept / (name + "-sl2vl.ibdmchk")).verdict == ibdmchk.NONE, name


def test_check_fabric_verifies_lash_with_its_path_sls(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4", "--hosts-per-switch", 2)
    conf = tmp_path / "lash.conf"
    conf.write_text("routing_engine lash\nqos TRUE\n")
    res = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check-fabric"), net,
                          "--conf", str(conf)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr[-2000:]
    assert re.search(r"ok +credit loops: none; .*\(SLs from psssp-path-sl\.dump \(2 SLs; host "
                     r"pairs: it has no SLs of routes from switches\), VLs from "
                     r"opensm-sl2vl\.dump\)", res.stdout), res.stdout
