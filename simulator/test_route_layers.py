# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""psssp-sim route --vls N --layers-out FILE: the plugin's deadlock-free mode
offline. The layer table it writes is what `check --deadlock --layers` reads,
and it removes the credit loops the plain tables have."""

import json
import re

from psssp_tools import binary, generate, run


def _check(net, lfts, *extra):
    return run([binary("psssp-sim"), "check", net, "--routes", lfts, "--deadlock", *extra],
               check=False)


def _route_tree_with_layers(tmp_path, vls):
    """A 4-ary 3-tree routed with --vls: (net, lfts, layers, JSON layer report)."""
    net = generate("kary-ntree", str(tmp_path / "t.net"), "--k", 4, "--n", 3)
    lfts, layers = tmp_path / "lfts.dump", tmp_path / "layers.dump"
    proc = run([binary("psssp-sim"), "route", net, "-o", lfts, "--vls", vls,
                "--layers-out", layers, "--json"])
    return net, lfts, layers, json.loads(proc.stdout)["layers"]


def test_torus_layers_remove_the_credit_loop(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "6x6", "--hosts-per-switch", 2)
    lfts, layers = tmp_path / "lfts.dump", tmp_path / "layers.dump"
    proc = run([binary("psssp-sim"), "route", net, "-o", lfts, "--vls", 8,
                "--layers-out", layers])
    needed = re.search(r"routes need (\d+) virtual layers, spread over (\d+)", proc.stderr)
    assert needed and 1 < int(needed.group(1)) <= 8 and needed.group(2) == "8", proc.stderr
    assert layers.read_text().startswith("psssp-layers 1\nlayers 8 lids ")
    plain = _check(net, lfts)
    assert plain.returncode == 1 and "credit loop on VL 0" in plain.stdout, plain.stdout
    proof = _check(net, lfts, "--layers", layers)
    assert proof.returncode == 0, proof.stdout[-3000:]
    assert ": none;" in proof.stdout and "VLs {0,1,2,3,4,5,6,7}" in proof.stdout, proof.stdout
    # The tables themselves are those of a plain routing.
    plain_lfts = tmp_path / "plain.dump"
    run([binary("psssp-sim"), "route", net, "-o", plain_lfts])
    assert plain_lfts.read_bytes() == lfts.read_bytes()


def test_tree_layers_cover_every_route_and_json_says_so(tmp_path):
    # On a tree the host routes need one layer; the routes of the switches
    # without hosts (switch to switch, down then up) one more, and with them
    # every route is free of credit loops (check's default scope: all).
    net, lfts, layers, report = _route_tree_with_layers(tmp_path, 4)
    assert report["needed"] == 2 and report["used"] == 4 and report["fallback"] == "", report
    assert report["output"] == str(layers)
    checked = _check(net, lfts, "--layers", layers, "--json")
    assert checked.returncode == 0, checked.stdout[-3000:]
    deadlock = json.loads(checked.stdout)["deadlock"]
    assert deadlock["scope"] == "all" and deadlock["all"]["deadlock_free"], deadlock
    # The check reads back the layers the routes from host ports use: all 4.
    assert deadlock["layer_table"] == {"sls": [0, 1, 2, 3]}


def test_one_layer_on_a_tree_leaves_out_the_switches_own_routes(tmp_path):
    # vls=1 still fits a tree: its host routes, with a note that the routes
    # from switches without hosts are not layered (check's hosts scope).
    net, lfts, layers, report = _route_tree_with_layers(tmp_path, 1)
    assert report["needed"] == 1, report
    assert "routes from switches without hosts not layered" in report["fallback"], report
    hosts = _check(net, lfts, "--layers", layers, "--deadlock-scope", "hosts")
    assert hosts.returncode == 0, hosts.stdout[-3000:]


def test_too_few_layers_fail_and_write_nothing(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "6x6")
    out, layers = tmp_path / "lfts.dump", tmp_path / "layers.dump"
    proc = run([binary("psssp-sim"), "route", net, "-o", out, "--vls", 1, "--layers-out", layers],
               check=False)
    assert proc.returncode == 2
    assert re.search(r"needs \d+ virtual layers, 1 available", proc.stderr), proc.stderr
    assert not out.exists() and not layers.exists()


def test_layers_out_needs_vls(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "3x3")
    proc = run([binary("psssp-sim"), "route", net, "-o", tmp_path / "l.dump", "--layers-out",
                tmp_path / "x.dump"], check=False)
    assert proc.returncode == 2 and "--vls" in proc.stderr, proc.stderr
