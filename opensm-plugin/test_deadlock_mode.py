# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The engine's deadlock-free mode (vls=N) inside the real OpenSM on ibsim,
proven loop-free from the tables, layer table and SL-to-VL maps the fabric
actually uses."""

import re

from ibsim_session import IbsimFabric
from opensm_log import parse_log
from psssp_tools import binary, generate, plugin_env, psssp_conf, run

CONFIGURED = "psssp tables configured on all switches"


def _route(fabric, tmp_path, options, args=()):
    osm = fabric.run_opensm(list(args), conf=psssp_conf(options), env_extra=plugin_env())
    fts = tmp_path / "lfts.fts"
    fts.write_text(fabric.dump_fts())
    topo = tmp_path / "fabric.topo"
    topo.write_text(fabric.ibnetdiscover())
    return osm, topo, fts


def test_torus_plain_has_credit_loop_layers_remove_it(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "8x8", "--hosts-per-switch", 4)
    with IbsimFabric(net, tmp_path) as fabric:
        osm, topo, fts = _route(fabric, tmp_path, "")
        assert CONFIGURED in osm.log
        plain = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--deadlock"],
                    check=False)
        assert plain.returncode == 1
        assert "credit loop on VL 0 over" in plain.stdout, plain.stdout

        osm, topo, fts = _route(fabric, tmp_path, "vls=8", ["-Q"])
        assert CONFIGURED in osm.log, osm.log[-3000:]
        record = parse_log(osm.log).psssp
        assert record.layers_needed and 1 < record.layers_needed <= 8, osm.log[-3000:]
        # The layering's time, part of the routing's.
        assert record.layer_seconds is not None, osm.log[-3000:]
        assert 0 <= record.layer_seconds <= record.seconds, osm.log[-3000:]
        # psssp-layers.dump, or named after the port with opensm --guid.
        layers = record.layer_table
        assert re.fullmatch(r"\S+/psssp-layers(\.0x[0-9a-f]{16})?\.dump", layers), layers
        sl2vl = osm.dump("opensm-sl2vl.dump")
        proof = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--deadlock",
                     "--layers", layers, "--sl2vl", sl2vl], check=False)
        assert proof.returncode == 0, proof.stdout[-3000:]
        assert "credit loops (SLs from layer table" in proof.stdout
        assert ": none;" in proof.stdout

        # Offline, psssp-sim route --vls writes the same tables and the same
        # layer table, byte for byte (one writer, write_layer_table, and the
        # same switch order: node GUIDs). The plugin may get fewer layers than
        # vls=8 when the ports offer fewer data VLs: offline asks for as many
        # as the plugin spread over.
        offline, offline_layers = tmp_path / "offline.dump", tmp_path / "offline-layers.dump"
        run([binary("psssp-sim"), "route", topo, "-o", offline, "--vls", record.layers,
             "--layers-out", offline_layers])
        same = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--same-as", offline],
                   check=False)
        assert same.returncode == 0 and "tables identical" in same.stdout, same.stdout[-3000:]
        with open(layers, "rb") as dump:
            assert dump.read() == offline_layers.read_bytes()
        offline_proof = run([binary("psssp-sim"), "check", topo, "--routes", offline,
                             "--deadlock", "--layers", offline_layers], check=False)
        assert offline_proof.returncode == 0 and ": none;" in offline_proof.stdout


def test_tree_layers_cover_the_switches_own_routes(tmp_path):
    # Host routes need one layer on a tree, the switches' own routes one more.
    net = generate("kary-ntree", str(tmp_path / "t.net"), "--k", 4, "--n", 3)
    with IbsimFabric(net, tmp_path) as fabric:
        osm, topo, fts = _route(fabric, tmp_path, "vls=4", ["-Q"])
        assert CONFIGURED in osm.log
        assert "routes need 2 virtual layers" in osm.log, osm.log[-3000:]
        assert "not layered" not in osm.log


def test_routes_again_when_the_layers_run_out(tmp_path):
    # Fast effort's routes on a 4x4x4 torus need 3 layers; with 2 the plugin
    # routes again with full effort (2 layers) instead of failing, says so,
    # and the tables are the offline ones, proven free of credit loops.
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4x4", "--hosts-per-switch", 1)
    with IbsimFabric(net, tmp_path) as fabric:
        osm, topo, fts = _route(fabric, tmp_path, "effort=fast vls=2", ["-Q"])
        assert CONFIGURED in osm.log, osm.log[-3000:]
        assert re.search(r"psssp: routed again (in port order|with full effort): the routing "
                         r"before needed more than 2 virtual layers", osm.log), osm.log[-3000:]
        record = parse_log(osm.log).psssp
        assert record.layers_needed and record.layers_needed <= 2, osm.log[-3000:]
        proof = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--deadlock",
                     "--layers", record.layer_table, "--sl2vl", osm.dump("opensm-sl2vl.dump")],
                    check=False)
        assert proof.returncode == 0 and ": none;" in proof.stdout, proof.stdout[-3000:]
        offline, offline_layers = tmp_path / "offline.dump", tmp_path / "offline-layers.dump"
        routed = run([binary("psssp-sim"), "route", topo, "-o", offline, "--effort", "fast",
                      "--vls", 2, "--layers-out", offline_layers])
        assert "routed again" in routed.stderr, routed.stderr
        same = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--same-as", offline],
                   check=False)
        assert same.returncode == 0 and "tables identical" in same.stdout, same.stdout[-3000:]
        with open(record.layer_table, "rb") as dump:
            assert dump.read() == offline_layers.read_bytes()


def test_too_few_layers_is_an_error_and_opensm_falls_back(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "8x8", "--hosts-per-switch", 1)
    with IbsimFabric(net, tmp_path) as fabric:
        osm, topo, fts = _route(fabric, tmp_path, "vls=1", ["-Q"])
        assert re.search(r"ERR F502: psssp routing failed: needs \d+ virtual layers, 1 available",
                         osm.log), osm.log[-3000:]
        assert CONFIGURED not in osm.log
        assert "minhop tables configured on all switches" in osm.log
        run([binary("psssp-sim"), "check", topo, "--routes", fts])


def test_layers_without_qos_refuse_to_set_up(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4")
    with IbsimFabric(net, tmp_path) as fabric:
        osm, _, _ = _route(fabric, tmp_path, "vls=8")
        assert "ERR F507: psssp refuses to set up: vls=8 needs QoS" in osm.log
        assert osm.subnet_up
