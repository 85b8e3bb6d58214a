# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The psssp plugin inside the real /usr/sbin/opensm, on fabrics emulated by
ibsim; the tables are read back from the emulated switches with dump_fts and
checked by psssp-sim."""

import os
import re

import pytest

from ibsim_session import IbsimFabric
from psssp_tools import binary, generate, plugin_env, psssp_conf, run

CONFIGURED = "psssp tables configured on all switches"

FABRICS = {
    "fattree2": ("fattree2", "--leaves", 4, "--hosts-per-leaf", 4, "--spines", 2, "--cables", 2),
    "kary-3tree": ("kary-ntree", "--k", 4, "--n", 3),
    "oversubscribed-hosts-on-spines": ("fattree2", "--leaves", 4, "--hosts-per-leaf", 6,
                                       "--spines", 2, "--hosts-per-spine", 2),
    "torus": ("torus", "--dims", "4x4", "--hosts-per-switch", 2),
    "dragonfly": ("dragonfly", "--a", 4, "--p", 2, "--h", 2),
    "random": ("random-regular", "--switches", 16, "--degree", 4, "--hosts-per-switch", 2,
               "--seed", 7),
    "dual-port": ("kary-ntree", "--k", 4, "--n", 2, "--dual-port"),
    "failed-cables": ("kary-ntree", "--k", 4, "--n", 3, "--fail", "0.1", "--seed", 3),
}


def route_with_plugin(fabric, options="", args=()):
    run_ = fabric.run_opensm(list(args), conf=psssp_conf(options), env_extra=plugin_env())
    assert run_.returncode == 0, run_.log[-3000:]
    return run_


def check_tables(tmp_path, fabric, name="fts"):
    """dump_fts from the emulated switches must pass psssp-sim check."""
    fts = tmp_path / (name + ".dump")
    fts.write_text(fabric.dump_fts())
    topo = tmp_path / (name + ".topo")
    topo.write_text(fabric.ibnetdiscover())
    result = run([binary("psssp-sim"), "check", topo, "--routes", fts], check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return topo, fts, result.stdout


def route_offline_and_compare(tmp_path, topo, fts, *route_args, name="offline"):
    """psssp-sim route on the fabric read back from the switches must give
    the programmed tables; returns the offline run (its summary on stderr)."""
    offline = tmp_path / (name + ".dump")
    proc = run([binary("psssp-sim"), "route", topo, "-o", offline, *route_args])
    same = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--same-as", offline],
               check=False)
    assert same.returncode == 0 and "tables identical" in same.stdout, same.stdout[-3000:]
    return proc


@pytest.mark.parametrize("name", sorted(FABRICS))
def test_plugin_routes_pass_check(tmp_path, name):
    net = generate(FABRICS[name][0], str(tmp_path / "fabric.net"), *FABRICS[name][1:])
    with IbsimFabric(net, tmp_path) as fabric:
        osm = route_with_plugin(fabric)
        assert CONFIGURED in osm.log, osm.log[-3000:]
        assert "psssp: routed" in osm.log
        check_tables(tmp_path, fabric)


def test_plugin_with_lmc2_routes_every_lid(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 2)
    with IbsimFabric(net, tmp_path) as fabric:
        osm = route_with_plugin(fabric, args=["-l", "2"])
        assert CONFIGURED in osm.log
        _, fts, _ = check_tables(tmp_path, fabric)
    # With LMC 2 a port's LIDs are an aligned block of 4. Each LID gets its own
    # search, so somewhere the 4 paths to a host must leave by different ports.
    ports_per_block = {}
    for (guid, lid), port in _entries(fts.read_text()).items():
        ports_per_block.setdefault((guid, lid // 4), set()).add(port)
    assert max(len(p) for p in ports_per_block.values()) >= 2


def test_programmed_tables_equal_offline_route(tmp_path):
    net = generate("fattree2", str(tmp_path / "fabric.net"), "--leaves", 4, "--hosts-per-leaf",
                   3, "--spines", 3)
    with IbsimFabric(net, tmp_path) as fabric:
        route_with_plugin(fabric)
        topo, fts, _ = check_tables(tmp_path, fabric)
    route_offline_and_compare(tmp_path, topo, fts)


# Choices the router makes from the fabric alone, said in OpenSM's log and
# in psssp-sim's summary, with the same tables inside OpenSM and offline:
# - a tree with a tenth of its cables at 1x: capacity=auto weighs load by
#   capacity (the rates come with the fabric read back from the switches);
# - a three-level tree where the tables laid out as on a fat tree, round
#   robin, are kept (tree_layout.h), and a two-level one where its layout
#   is (the candidates judged on the structured patterns too);
# - two director chassis joined by six cables, where the wide
#   rank-neighbours routing is kept (psssp-route.md, "Rank neighbours");
# - a dragonfly where it is kept refined for the patterns ("Pattern
#   refinement");
# - a Dragonfly+ with fast effort, where its groups' layout is kept.
# A third entry: the plugin options (and the same effort offline).
SAID = {
    "capacity-on-mixed-rates": (("kary-ntree", "--k", 4, "--n", 3, "--rate", "4xEDR",
                                 "--degrade", 0.1, "--seed", 2), "; load weighed by capacity"),
    "tree-layout": (("fattree3", "--pods", 4, "--leaves", 4, "--hosts-per-leaf", 8, "--aggs", 4,
                     "--cores-per-agg", 4, "--cables", 1), "; tree layout, round robin"),
    "tree-layout-two-levels": (("fattree2", "--leaves", 6, "--hosts-per-leaf", 18, "--spines", 3,
                                "--cables", 3), "; tree layout"),
    "rank-neighbours": (("director", "--model", "is5100", "--chassis", 2, "--bundle", 6),
                        "; rank neighbours (window 16)"),
    "pattern-refined": (("dragonfly", "--a", 6, "--p", 3, "--h", 3),
                        "; rank neighbours (window 4); pattern-refined ("),
    "tree-layout-dragonfly-plus-fast": (("dragonfly-plus", "--groups", 15, "--leaves", 4,
                                         "--spines", 4, "--hosts-per-leaf", 4),
                                        "; tree layout", "effort=fast"),
}


@pytest.mark.parametrize("name", sorted(SAID))
def test_choice_said_inside_opensm_and_offline(tmp_path, name):
    spec, says, options = (SAID[name] + ("",))[:3]
    net = generate(spec[0], str(tmp_path / "fabric.net"), *spec[1:])
    effort = [o.split("=")[1] for o in options.split() if o.startswith("effort=")]
    with IbsimFabric(net, tmp_path) as fabric:
        osm = route_with_plugin(fabric, options=options)
        assert says in osm.log, osm.log[-3000:]
        for e in effort:
            assert e + " effort" in osm.log, osm.log[-3000:]
        topo, fts, _ = check_tables(tmp_path, fabric)
    proc = route_offline_and_compare(tmp_path, topo, fts, *(["--effort"] + effort if effort else []))
    assert says in proc.stderr, proc.stderr
    for e in effort:
        assert e + " effort" in proc.stderr, proc.stderr


@pytest.mark.parametrize("effort", ["auto", "fast"])
def test_effort_reaches_the_router_and_matches_offline(tmp_path, effort):
    # A torus routes with full effort by default (endpoint affinity, several
    # refinement passes): other tables than fast effort, the same as offline.
    # Fast effort refines speculatively on two threads inside OpenSM; offline
    # runs on one: the tables must not depend on it.
    net = generate("torus", str(tmp_path / "fabric.net"), "--dims", "4x4", "--hosts-per-switch", 2)
    with IbsimFabric(net, tmp_path) as fabric:
        osm = route_with_plugin(fabric,
                                options="" if effort == "auto" else "threads=2 effort=" + effort)
        want = "full effort" if effort == "auto" else "fast effort, 1 refinement passes"
        assert want in osm.log, osm.log[-3000:]
        topo, fts, _ = check_tables(tmp_path, fabric)
    offline = {}
    for e in ("auto", "fast"):
        offline[e] = tmp_path / (e + ".dump")
        run([binary("psssp-sim"), "route", topo, "-o", offline[e], "--effort", e, "--threads", 1])
    other = "fast" if effort == "auto" else "auto"
    same = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--same-as", offline[effort]],
               check=False)
    assert same.returncode == 0 and "tables identical" in same.stdout, same.stdout[-3000:]
    differ = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--same-as", offline[other]],
                 check=False)
    assert differ.returncode != 0, differ.stdout[-3000:]


def test_bad_options_fall_back_and_subnet_comes_up(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 2)
    with IbsimFabric(net, tmp_path) as fabric:
        osm = route_with_plugin(fabric, options="threads=lots")
        assert "ERR F501: psssp refuses to set up: bad event_plugin_options: option 'threads'" \
            in osm.log, osm.log[-3000:]
        assert osm.subnet_up
        assert CONFIGURED not in osm.log
        assert "minhop tables configured on all switches" in osm.log
        check_tables(tmp_path, fabric)


def test_psssp8_synopsis_names_every_option_the_plugin_knows(tmp_path):
    # The plugin lists what it knows when it refuses an unknown option; the
    # man page's SYNOPSIS must name each of them.
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 2, "--n", 2)
    with IbsimFabric(net, tmp_path) as fabric:
        osm = route_with_plugin(fabric, options="no_such_option")
    known = re.search(r"unknown option 'no_such_option' \(known: ([^)]*)\)", osm.log)
    assert known, osm.log[-3000:]
    keys = {re.split(r"[=\[]", word)[0] for word in known.group(1).split()}
    page = open(os.path.join(os.path.dirname(__file__), "psssp.8")).read()
    synopsis = page.split(".SH SYNOPSIS", 1)[1].split(".SH ", 1)[0]
    assert len(keys) > 10 and not [k for k in sorted(keys) if k not in synopsis], synopsis


def test_link_failure_and_recovery_reroute(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 2)
    with IbsimFabric(net, tmp_path, console=True) as fabric:
        sm = fabric.start_opensm(conf=psssp_conf(), env_extra=plugin_env())
        sm.wait_for_log(CONFIGURED)
        check_tables(tmp_path, fabric, "before")
        # Take a leaf-to-spine cable down; OpenSM sees the trap/sweep and re-routes.
        leaf, port = _first_switch_uplink(net)
        fabric.console('Unlink "%s"[%d]' % (leaf, port))
        sm.wait_for_log(CONFIGURED, count=2, timeout=120)
        topo, fts, _ = check_tables(tmp_path, fabric, "down")
        assert _port_unused(fts.read_text(), leaf, port), "a route still uses the dead cable"
        fabric.console('ReLink "%s"[%d]' % (leaf, port))
        sm.wait_for_log(CONFIGURED, count=3, timeout=120)
        check_tables(tmp_path, fabric, "up")


def _entries(dump_text):
    """{(switch GUID, LID): port} from dump_fts or opensm-lfts.dump text."""
    entries, guid = {}, None
    for line in dump_text.splitlines():
        if line.startswith("Unicast lids"):
            guid = int(line.split(" guid ")[1].split()[0], 16)
        elif guid is not None and line.startswith("0x"):
            lid, port = line.split()[:2]
            entries[(guid, int(lid, 16))] = int(port)
    return entries


def _first_switch_uplink(net_path):
    """(switch name, port) of the first switch-to-switch cable in a net file."""
    switch = None
    for line in open(net_path):
        line = line.strip()
        if line.startswith("Switch"):
            switch = line.split('"')[1]
        elif switch and line.startswith("[") and '"' in line:
            remote = line.split('"')[1]
            if _is_switch(net_path, remote):
                return switch, int(line[1:line.index("]")])
        elif not line:
            switch = None
    raise AssertionError("no switch-to-switch cable in " + net_path)


def _is_switch(net_path, name):
    return any(l.startswith("Switch") and ('"%s"' % name) in l for l in open(net_path))


def _port_unused(dump_text, switch_name, port):
    """True if no LFT entry of the named switch points at `port`."""
    block = None
    for line in dump_text.splitlines():
        if line.startswith("Unicast lids"):
            block = "'%s'" % switch_name in line or "(%s)" % switch_name in line
        elif block and line.startswith("0x"):
            if int(line.split()[1]) == port:
                return False
    return True
