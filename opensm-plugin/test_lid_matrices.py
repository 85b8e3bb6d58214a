# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The switches' hop tables ("LID matrices") psssp builds inside the real
OpenSM are the ones OpenSM's own min-hop step builds: with log flag 0x40
OpenSM dumps them (opensm-lid-matrix.dump, and with the routes in
opensm.fdbs), and multicast routing reads them (opensm.mcfdbs, once hosts
join the IPoIB broadcast group OpenSM creates by default). Each fabric is
routed by psssp on the same ibsim, once with lid_matrices=psssp and once
with lid_matrices=opensm; every one of those dumps must be byte-identical."""

import os
import re
import subprocess
import sys
import time

import pytest

from ibsim_session import IbsimFabric, find_tool
from psssp_tools import generate, plugin_env, psssp_conf

JOIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sa_mcast_join.py")

CONFIGURED = "psssp tables configured on all switches"
BUILT = re.compile(r"psssp: LID matrices for (\d+) switch LIDs built in [0-9.]+ s")
DUMPS = ("opensm-lid-matrix.dump", "opensm.fdbs")

# (psssp-topo arguments, OpenSM arguments)
FABRICS = {
    "fat-tree-lmc1": (("kary-ntree", "--k", 4, "--n", 3), ["-l", "1"]),
    "torus-lmc2": (("torus", "--dims", "4x4", "--hosts-per-switch", 2), ["-l", "2"]),
    "dragonfly": (("dragonfly", "--a", 4, "--p", 2, "--h", 2), []),
    "random-lmc1": (("random-regular", "--switches", 16, "--degree", 4, "--hosts-per-switch", 2,
                     "--seed", 7), ["-l", "1"]),
    "fat-tree-failed-cables": (("kary-ntree", "--k", 4, "--n", 3, "--fail", "0.15", "--seed", 3),
                               []),
    "random-failed-cables-lmc2": (("random-regular", "--switches", 20, "--degree", 5,
                                   "--hosts-per-switch", 1, "--seed", 11, "--fail", "0.2"),
                                  ["-l", "2"]),
}


def conf_for(matrices, plugin="psssp"):
    conf = psssp_conf("lid_matrices=" + matrices)
    if plugin != "psssp":
        conf = conf.replace("event_plugin_name psssp\n", "event_plugin_name %s\n" % plugin)
    return conf


def route(fabric, matrices, args, plugin="psssp", env=None):
    conf = conf_for(matrices, plugin)
    run = fabric.run_opensm(list(args), conf=conf, env_extra=dict(plugin_env(), **(env or {})))
    assert run.returncode == 0, run.log[-3000:]
    assert CONFIGURED in run.log, run.log[-3000:]
    return run


def read_dumps(run):
    out = {}
    for name in DUMPS:
        with open(run.dump(name), "rb") as f:
            out[name] = f.read()
    return out


def switch_count(net_path):
    return sum(1 for line in open(net_path) if line.startswith("Switch"))


def matrix_rows(text):
    """{switch guid: [row lines]} of opensm-lid-matrix.dump."""
    rows, guid = {}, None
    for line in text.splitlines():
        if line.startswith("Switch: guid "):
            guid = line.split()[2]
            rows[guid] = []
        elif line.startswith("0x") and guid:
            rows[guid].append(line)
    return rows


def assert_same(ours, theirs):
    for name in DUMPS:
        if ours[name] != theirs[name]:
            a, b = ours[name].decode().splitlines(), theirs[name].decode().splitlines()
            diff = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y][:5]
            pytest.fail("%s differs (%d vs %d lines), first differences %r" % (
                name, len(a), len(b), diff))


@pytest.mark.parametrize("name", sorted(FABRICS))
def test_hop_tables_equal_opensm_own(tmp_path, name):
    topo, args = FABRICS[name]
    net = generate(topo[0], str(tmp_path / "fabric.net"), *topo[1:])
    switches = switch_count(net)
    with IbsimFabric(net, tmp_path) as fabric:
        theirs = route(fabric, "opensm", args)
        ours = route(fabric, "psssp", args)
    built = BUILT.search(ours.log)
    assert built, ours.log[-3000:]
    assert int(built.group(1)) == switches
    assert not BUILT.search(theirs.log), "lid_matrices=opensm must leave the tables to OpenSM"
    a, b = read_dumps(ours), read_dumps(theirs)
    # Not trivially equal: every switch has a row for every switch LID.
    rows = matrix_rows(a["opensm-lid-matrix.dump"].decode())
    assert len(rows) == switches
    assert all(len(r) == switches for r in rows.values())
    assert_same(a, b)


def test_failed_computation_falls_back_to_opensm_tables(tmp_path):
    # The test build of the plugin makes the first task of the LID matrix
    # computation throw std::bad_alloc: the fence logs it, every hop table is
    # left to OpenSM, and psssp still routes.
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 3)
    with IbsimFabric(net, tmp_path) as fabric:
        theirs = route(fabric, "opensm", [])
        failed = route(fabric, "psssp", [], plugin="psssp_faultinject",
                       env={"PSSSP_FAULT_AT_HOPS_TASK": "1"})
    assert "ERR F510: psssp: cannot build the LID matrices: out of memory; OpenSM builds them" \
        in failed.log, failed.log[-3000:]
    assert not BUILT.search(failed.log)
    assert "psssp: routed" in failed.log
    assert_same(read_dumps(failed), read_dumps(theirs))


def host_ports(net_path):
    """{host name: (switch GUID as OpenSM prints it, switch port)}, from the net file."""
    lines = open(net_path).read().splitlines()
    cas = {l.split('"')[1] for l in lines if l.startswith("Ca")}
    out, guid = {}, None
    for line in lines:
        if line.startswith("switchguid="):
            guid = "0x%016x" % int(line.split("=")[1], 16)
        elif line.startswith("Ca"):
            guid = None
        elif guid and line.startswith("[") and '"' in line and line.split('"')[1] in cas:
            out.setdefault(line.split('"')[1], (guid, int(line[1:line.index("]")])))
    return out


def join(fabric, host):
    """Joins `host`'s port to the IPoIB broadcast group through the SA."""
    env = fabric.client_env({"SIM_HOST": host})

    def tool(*args):
        proc = subprocess.run([find_tool(args[0])] + list(args[1:]), env=env,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    sm_lid = re.search(r"sm lid (\d+)", tool("sminfo")).group(1)
    gid = re.search(r"GID (\S+)", tool("ibaddr")).group(1)
    # A busy SM (a loaded machine) can take seconds to answer.
    proc = subprocess.run([sys.executable, JOIN, "--sm-lid", sm_lid, "--port-gid", gid,
                           "--timeout-ms", "15000"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "MLID 0xc000" in proc.stdout, proc.stdout + proc.stderr


def mcast_ports(text, mlid="0xC000"):
    """{(switch guid, port)} of one MLID in opensm.mcfdbs."""
    out, guid = set(), None
    for line in text.splitlines():
        if line.startswith("Switch 0x"):
            guid = line.split()[1]
        elif line.startswith(mlid + " :"):
            out.update((guid, int(p, 16)) for p in line.split(":")[1].split())
    return out


def multicast_tables(fabric, matrices, hosts, leaf_ports, args):
    """opensm.mcfdbs of a resident OpenSM once `hosts` have joined and the
    group's tree reaches each of them."""
    sm = fabric.start_opensm(list(args), conf=conf_for(matrices), env_extra=plugin_env())
    try:
        sm.wait_for_log(CONFIGURED)
        # OpenSM ignores SA MADs until its first sweep is over (osm_sa_mad_ctrl.c).
        sm.wait_for_log("SUBNET UP")
        for host in hosts:
            join(fabric, host)
        path = sm.run.dump("opensm.mcfdbs")
        want = {leaf_ports[h] for h in hosts}
        deadline, text, last = time.monotonic() + 60, "", None
        while time.monotonic() < deadline:
            if os.path.exists(path):
                with open(path) as f:
                    text = f.read()
                if want <= mcast_ports(text) and text == last:
                    return text, sm.run.log
                last = text
            time.sleep(0.5)
        pytest.fail("the multicast tree never reached %r: %s" % (
            sorted(want - mcast_ports(text)), text[:2000]))
    finally:
        sm.stop()


MCAST_FABRICS = {
    "fat-tree-lmc1": FABRICS["fat-tree-lmc1"],
    "torus": (("torus", "--dims", "4x4", "--hosts-per-switch", 2), []),
    "random-failed-cables-lmc2": FABRICS["random-failed-cables-lmc2"],
}


@pytest.mark.parametrize("name", sorted(MCAST_FABRICS))
def test_multicast_tables_equal_opensm_own(tmp_path, name):
    topo, args = MCAST_FABRICS[name]
    net = generate(topo[0], str(tmp_path / "fabric.net"), *topo[1:])
    leaf_ports = host_ports(net)
    names = sorted(leaf_ports, key=lambda h: int(re.sub(r"\D", "", h) or 0))
    hosts = names[::max(1, len(names) // 6)][:6]
    with IbsimFabric(net, tmp_path) as fabric:
        theirs, _ = multicast_tables(fabric, "opensm", hosts, leaf_ports, args)
        ours, log = multicast_tables(fabric, "psssp", hosts, leaf_ports, args)
    assert BUILT.search(log), log[-3000:]
    # A tree spanning switches, not just the members' own leaves.
    assert len({g for g, _ in mcast_ports(ours)}) > len({leaf_ports[h][0] for h in hosts}) or \
        name.startswith("torus"), ours
    assert ours == theirs


def resweep_tables(net, workdir, matrices, cable):
    """The hop-table dumps after the first sweep and after a re-sweep for an
    unlinked cable, from a resident OpenSM on a fresh ibsim."""
    sw, port = cable
    with IbsimFabric(net, workdir, console=True) as fabric:
        sm = fabric.start_opensm(conf=conf_for(matrices), env_extra=plugin_env())
        sm.wait_for_log("SUBNET UP")
        with open(sm.run.dump("opensm-lid-matrix.dump"), "rb") as f:
            first = f.read()
        fabric.console('Unlink "%s"[%d]' % (sw, port))
        sm.wait_for_log("SUBNET UP", count=2)
        after = read_dumps(sm.run)
        log = sm.run.log
        sm.stop()
    assert log.count(CONFIGURED) == 2, log[-3000:]
    return first, after, log


def test_hop_tables_after_resweep_equal_opensm_own(tmp_path):
    # A re-sweep (incremental psssp routing) rebuilds the hop tables in the
    # rows OpenSM kept from the first sweep; they must match OpenSM's again.
    from test_incremental import _spine_cable, _switch_guids
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 3)
    sw, port, _, _ = _spine_cable(net, _switch_guids(net))
    first, ours, log = resweep_tables(net, tmp_path / "psssp", "psssp", (sw, port))
    _, theirs, _ = resweep_tables(net, tmp_path / "opensm", "opensm", (sw, port))
    assert len(BUILT.findall(log)) == 2, log[-3000:]
    assert "psssp: incremental re-route:" in log
    assert ours["opensm-lid-matrix.dump"] != first, "the unlinked cable changed no hop count"
    assert_same(ours, theirs)
