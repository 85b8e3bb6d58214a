# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Where the load goes: check --link-csv (routes per cable, host cables too),
score --link-csv's kind column, and convert --format dot coloured by either,
drawn by Graphviz when it is installed."""

import csv
import io
import shutil
import subprocess

import pytest

from psssp_tools import binary, generate, run


def routed_tree(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    lfts = tmp_path / "r.lfts"
    run([binary("psssp-sim"), "route", net, "-o", lfts])
    return net, lfts


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_check_link_csv_counts_every_route_once_per_cable(tmp_path):
    net, lfts = routed_tree(tmp_path)
    out = tmp_path / "routes.csv"
    report = run([binary("psssp-sim"), "check", net, "--routes", lfts, "--link-csv", out])
    table = rows(out.read_text())
    host = [r for r in table if r["kind"] == "host"]
    switch = [r for r in table if r["kind"] == "switch"]
    # 16 hosts: one cable each, two directions; 4 leaves x 4 spines, two directions.
    assert len(host) == 32 and len(switch) == 32
    # Every host sends to the 15 others and receives from them.
    assert {int(r["routes"]) for r in host} == {15}
    # Routes leaving a host's leaf: 4 hosts x 12 hosts elsewhere = 48, over 4 uplinks.
    up = [int(r["routes"]) for r in switch if r["node"].startswith("leaf")]
    assert sum(up) == 4 * 48
    assert "max %d" % max(int(r["routes"]) for r in switch) in report.stdout


def test_score_link_csv_names_the_kind(tmp_path):
    net, lfts = routed_tree(tmp_path)
    out = tmp_path / "flows.csv"
    run([binary("psssp-sim"), "score", net, "--routes", lfts, "--runs", 20, "--link-csv", out])
    table = rows(out.read_text())
    assert list(table[0])[-1] == "kind"
    for r in table:
        one_host = r["node"].startswith("h-") or r["remote"].startswith("h-")
        assert r["kind"] == ("host" if one_host else "switch"), r


def test_convert_dot_colours_cables_by_load(tmp_path):
    net, lfts = routed_tree(tmp_path)
    loads = tmp_path / "routes.csv"
    run([binary("psssp-sim"), "check", net, "--routes", lfts, "--link-csv", loads])
    plain = run([binary("psssp-sim"), "convert", net, "--format", "dot"]).stdout
    coloured = run([binary("psssp-sim"), "convert", net, "--format", "dot", "--link-csv", loads,
                    "--title", "k=4 n=2"]).stdout
    assert plain.count(" -- ") == coloured.count(" -- ") == 16
    assert "layout=dot" in plain and "rank=same" in plain  # a fat tree: levels
    assert "load=" not in plain and "load=12" in coloured  # 4 x 12 / 4 routes per uplink
    assert 'label="k=4 n=2"' in coloured
    if shutil.which("dot"):
        png = subprocess.run(["dot", "-Tpng"], input=coloured.encode(), capture_output=True)
        assert png.returncode == 0, png.stderr
        assert png.stdout.startswith(b"\x89PNG")


def test_convert_dot_options_are_checked(tmp_path):
    net, _ = routed_tree(tmp_path)
    sim = binary("psssp-sim")
    net_only = run([sim, "convert", net, "--link-csv", net], check=False)
    assert net_only.returncode == 2 and "need --format dot" in net_only.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text("node_guid,port,routes\n0x1,one,3\n")
    res = run([sim, "convert", net, "--format", "dot", "--link-csv", bad], check=False)
    assert res.returncode != 0 and "bad.csv:2" in res.stderr, res.stderr
    res = run([sim, "convert", net, "--format", "svg"], check=False)
    assert res.returncode == 2
