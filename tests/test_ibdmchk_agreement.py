# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""ibdmchk (ibutils) as a second opinion on psssp-sim check --deadlock: on a
torus, a dragonfly and a fat tree with failed cables, for every OpenSM
engine, ibdmchk's verdict on OpenSM's own opensm-subnet.lst and opensm.fdbs
equals psssp-sim's on the same files: host-to-host routes against plain
ibdmchk, all routes against ibdmchk -a. Both tools judge the LFTs with every
route on SL 0 (no path-SL or SL-to-VL files)."""

import json

import pytest

import ibdmchk
from ibsim_session import IbsimFabric
from opensm_engines import ALL_ENGINES
from opensm_log import parse_log
from psssp_tools import binary, generate, plugin_env, psssp_conf, run

FABRICS = {
    "torus": ("torus", "--dims", "4x4"),
    "dragonfly": ("dragonfly", "--a", 4, "--p", 2, "--h", 2),
    "faulted-fat-tree": ("fattree2", "--leaves", 4, "--hosts-per-leaf", 3, "--spines", 3,
                         "--fail", 0.3, "--seed", 3),
}

def ibdmchk_verdict(workdir, subnet, fdbs, everything, path_sl=None, sl2vl=None):
    """ibdmchk's verdict, read by scripts/ibdmchk.py whatever ibdmchk's exit
    status (Debian's segfaults right after printing it)."""
    return ibdmchk.run(workdir, subnet, fdbs, everything, path_sl, sl2vl).verdict


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Per fabric and engine: OpenSM's opensm-subnet.lst and opensm.fdbs."""
    out = {}
    for name, spec in FABRICS.items():
        d = tmp_path_factory.mktemp(name)
        net = generate(spec[0], str(d / "f.net"), *spec[1:])
        with IbsimFabric(net, d) as fabric:
            for engine in ALL_ENGINES:
                if engine == "psssp":
                    osm = fabric.run_opensm(conf=psssp_conf(""), env_extra=plugin_env())
                else:
                    osm = fabric.run_opensm(["-R", engine])
                assert osm.subnet_up, (name, engine, osm.log[-2000:])
                out[name, engine] = (osm.workdir, osm.dump("opensm-subnet.lst"),
                                     osm.dump("opensm.fdbs"))
    return out


def test_ibdmchk_agrees_per_engine_and_scope(runs):
    table, disagreements = [], []
    for (name, engine), (workdir, subnet, fdbs) in sorted(runs.items()):
        proc = run([binary("psssp-sim"), "check", subnet, "--routes", fdbs, "--deadlock",
                    "--json"], check=False)
        assert proc.returncode in (0, 1), proc.stderr
        loops = json.loads(proc.stdout)["deadlock"]
        for scope, everything in (("hosts", False), ("all", True)):
            ours = ibdmchk.sim_verdict(loops[scope])
            theirs = ibdmchk_verdict(workdir, subnet, fdbs, everything)
            table.append("%-16s %-10s %-5s psssp-sim %-8s ibdmchk %s" % (
                name, engine, scope, ours, theirs))
            if ours != theirs:
                disagreements.append(table[-1])
    print("\n".join(table))
    assert not disagreements, "\n".join(disagreements)


def test_ibdmchk_accepts_psssp_layer_files(tmp_path):
    """psssp-sim route --vls 8 --ibdmchk-out on a 3-D torus whose routes need
    more than one layer (LIDs from OpenSM's opensm-subnet.lst): ibdmchk reads
    the path SLs (-c), SL-to-VL maps (-d) and routes (-f) and finds no credit
    loop, host-to-host or with -a; the same routes on SL 0 loop."""
    net = generate("torus", str(tmp_path / "f.net"), "--dims", "4x4x6")
    with IbsimFabric(net, tmp_path) as fabric:
        osm = fabric.run_opensm(["-R", "minhop"])
    subnet = osm.dump("opensm-subnet.lst")
    prefix = str(tmp_path / "psssp-")
    proc = run([binary("psssp-sim"), "route", subnet, "--vls", 8, "-o", tmp_path / "t.lfts",
                "--layers-out", tmp_path / "t.layers", "--ibdmchk-out", prefix, "--json"])
    assert json.loads(proc.stdout)["layers"]["needed"] >= 2
    files = (prefix + "path-sl.ibdmchk", prefix + "sl2vl.ibdmchk")
    fdbs = prefix + "fdbs.ibdmchk"
    for everything in (False, True):
        assert ibdmchk_verdict(str(tmp_path), subnet, fdbs, everything, *files) == "none"
    assert ibdmchk_verdict(str(tmp_path), subnet, fdbs, False) == "loops"
    # psssp-sim reads the same .fdbs and agrees, in both scopes.
    loops = json.loads(run([binary("psssp-sim"), "check", subnet, "--routes", fdbs, "--deadlock",
                            "--layers", tmp_path / "t.layers", "--json"]).stdout)["deadlock"]
    assert loops["hosts"]["deadlock_free"] and loops["all"]["deadlock_free"]
    assert loops["vls"] == list(range(8))


def test_plugin_writes_ibdmchk_files(tmp_path):
    """Inside OpenSM with vls=8 the plugin writes psssp-path-sl.ibdmchk and
    psssp-sl2vl.ibdmchk next to opensm.fdbs; ibdmchk reads them with OpenSM's
    own opensm-subnet.lst and opensm.fdbs and finds no credit loop, also with
    OpenSM's programmed SL-to-VL maps (opensm-sl2vl.dump, which ibdmchk -d
    reads too)."""
    net = generate("torus", str(tmp_path / "f.net"), "--dims", "4x4x6")
    with IbsimFabric(net, tmp_path) as fabric:
        osm = fabric.run_opensm(["-Q"], conf=psssp_conf("vls=8"), env_extra=plugin_env())
    assert "psssp: for ibdmchk -c and -d: " in osm.log, osm.log[-3000:]
    subnet, fdbs = osm.dump("opensm-subnet.lst"), osm.dump("opensm.fdbs")
    path_sl = osm.dump("psssp-path-sl.ibdmchk")
    for sl2vl in (osm.dump("psssp-sl2vl.ibdmchk"), osm.dump("opensm-sl2vl.dump")):
        for everything in (False, True):
            assert ibdmchk_verdict(osm.workdir, subnet, fdbs, everything, path_sl,
                                   sl2vl) == "none", (sl2vl, everything)
    assert ibdmchk_verdict(osm.workdir, subnet, fdbs, False) == "loops"


def test_ibdmchk_accepts_psssp_vls8_where_dfsssp_needs_9(tmp_path):
    """A 3-D torus (5x5x5, one host per switch) on which dfsssp needs more
    than the 8 VLs ibsim's ports have (it says 9 and gives up, ERR AD25):
    psssp with vls=8 routes it, and ibdmchk, given the plugin's path SLs and
    SL-to-VL maps (its own or OpenSM's programmed ones), finds no credit
    loop, host to host or with -a; the same routes on SL 0 loop."""
    net = generate("torus", str(tmp_path / "f.net"), "--dims", "5x5x5")
    with IbsimFabric(net, tmp_path) as fabric:
        dfsssp = fabric.run_opensm(["-R", "dfsssp", "-Q"])
        osm = fabric.run_opensm(["-Q"], conf=psssp_conf("vls=8"), env_extra=plugin_env())
    assert parse_log(dfsssp.log).dfsssp_vls_needed == 9, dfsssp.log[-3000:]
    assert "ERR AD25: Not enough VLs available (avail=8, needed=9)" in dfsssp.log
    log = parse_log(osm.log)
    assert log.engine == "psssp" and 2 <= log.psssp.layers_needed <= 8, osm.log[-3000:]
    subnet, fdbs = osm.dump("opensm-subnet.lst"), osm.dump("opensm.fdbs")
    path_sl = osm.dump("psssp-path-sl.ibdmchk")
    for sl2vl in (osm.dump("psssp-sl2vl.ibdmchk"), osm.dump("opensm-sl2vl.dump")):
        for everything in (False, True):
            res = ibdmchk.run(osm.workdir, subnet, fdbs, everything, path_sl, sl2vl)
            assert res.verdict == ibdmchk.NONE, (sl2vl, everything, res.output[-3000:])
            assert "-I- no credit loops found" in res.output
            assert res.vls <= 8
    assert ibdmchk_verdict(osm.workdir, subnet, fdbs, False) == ibdmchk.LOOPS
    print("5x5x5 torus: dfsssp needs %d VLs; psssp vls=8 needs %d layers; ibdmchk: "
          "no credit loops" % (parse_log(dfsssp.log).dfsssp_vls_needed,
                               log.psssp.layers_needed))
