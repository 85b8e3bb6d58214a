# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Round trip through real components: psssp-topo -> ibsim -> OpenSM ->
ibnetdiscover must show exactly the generated switches, hosts, GUIDs and
cables (by GUID and port number).

ibnetdiscover output is parsed here with a minimal parser, since
`psssp-sim info` prints only counts. The project's reader (parse_fabric) is
checked on the same kind of output in generated_capture_test.cc, against
captures made by testdata/capture.py.
"""

import re
import subprocess

import pytest

from ibsim_session import IbsimFabric
from psssp_tools import binary

# One small instance per family, plus failures and dual-port hosts.
CASES = {
    "kary-ntree": ["kary-ntree", "--k", "2", "--n", "3"],
    "fattree2": ["fattree2", "--leaves", "3", "--hosts-per-leaf", "2", "--spines", "2",
                 "--cables", "2", "--hosts-per-spine", "1"],
    "fattree3": ["fattree3", "--pods", "2", "--leaves", "2", "--hosts-per-leaf", "1",
                 "--aggs", "2", "--cores-per-agg", "2"],
    "torus": ["torus", "--dims", "3x3", "--hosts-per-switch", "2"],
    "mesh": ["mesh", "--dims", "2x2x2"],
    "hypercube": ["hypercube", "--dim", "3"],
    "dragonfly": ["dragonfly", "--a", "2", "--p", "1", "--h", "1"],
    "hyperx": ["hyperx", "--dims", "3x2", "--cables", "2"],
    "kautz": ["kautz", "--degree", "2", "--diameter", "1"],
    "director": ["director", "--chassis", "3", "--join", "ring", "--line-chips", "4",
                 "--fabric-chips", "2", "--chip-ports", "8", "--external-ports", "4",
                 "--bundle", "2"],
    "random-regular": ["random-regular", "--switches", "8", "--degree", "3", "--seed", "3"],
    "tapered-tree": ["tapered-tree", "--k", "2", "--n", "3", "--hosts-per-leaf", "3",
                     "--uplinks", "1"],
    "grown-tree": ["grown-tree", "--leaves", "4", "--spines", "3", "--old-radix", "8",
                   "--new-radix", "10", "--min-hosts", "1", "--max-hosts", "4",
                   "--short-leaves", "1", "--short-uplinks", "1", "--spine-hosts", "2"],
    "dragonfly-plus": ["dragonfly-plus", "--groups", "3", "--leaves", "2", "--spines", "2",
                       "--hosts-per-leaf", "1", "--global-links", "1"],
    "rail-optimized": ["rail-optimized", "--units", "2", "--servers", "2", "--hcas", "2",
                       "--spines", "1"],
    "torus-failed-dual": ["torus", "--dims", "4x4", "--fail", "0.25", "--seed", "2",
                          "--dual-port"],
}


def generate(tmp_path, args):
    net = tmp_path / "fabric.net"
    subprocess.run([binary("psssp-topo")] + args + ["-o", str(net)], check=True,
                   capture_output=True)
    return net


def parse_net(text):
    """Generator output: nodes {guid: (type, ports, description)}, cables."""
    guid_of, nodes, links = {}, {}, []
    pending = None
    current = None
    for line in text.splitlines():
        m = re.match(r"(switchguid|caguid)=0x([0-9a-f]+)$", line)
        if m:
            pending = int(m.group(2), 16)
            continue
        m = re.match(r'(Switch|Ca)\t(\d+) "([^"]+)"(?:\t# "([^"]*)")?', line)
        if m:
            current = m.group(3)
            guid_of[current] = pending
            nodes[pending] = (m.group(1), int(m.group(2)), m.group(4) or current)
            continue
        m = re.match(r'\[(\d+)\]\t"([^"]+)"\[(\d+)\]', line)
        if m:
            links.append((current, int(m.group(1)), m.group(2), int(m.group(3))))
    cables = {frozenset([(guid_of[a], pa), (guid_of[b], pb)]) for a, pa, b, pb in links}
    return nodes, cables


def parse_ibnetdiscover(text):
    """ibnetdiscover output in the same shape, plus CA port GUIDs and link rates."""
    nodes, cables, port_guids, rates = {}, set(), {}, set()
    current = None
    for line in text.splitlines():
        m = re.match(r'(Switch|Ca)\s+(\d+)\s+"[SH]-([0-9a-f]+)"\s+#\s+"([^"]*)"', line)
        if m:
            current = int(m.group(3), 16)
            nodes[current] = (m.group(1), int(m.group(2)), m.group(4))
            continue
        m = re.match(r'\[(\d+)\](?:\(([0-9a-f]+)\))?\s+"[SH]-([0-9a-f]+)"\[(\d+)\]', line)
        if m and current is not None:
            port = int(m.group(1))
            if m.group(2):
                port_guids[(current, port)] = int(m.group(2), 16)
            cables.add(frozenset([(current, port), (int(m.group(3), 16), int(m.group(4)))]))
            rate = re.search(r"(\d+x[A-Z0-9]+)\s*$", line)
            rates.add(rate.group(1) if rate else None)
    return nodes, cables, port_guids, rates


@pytest.mark.parametrize("name", sorted(CASES))
def test_ibnetdiscover_sees_the_generated_fabric(tmp_path, name):
    net = generate(tmp_path, CASES[name])
    want_nodes, want_cables = parse_net(net.read_text())
    assert want_nodes and want_cables
    first = next(line for line in net.read_text().splitlines() if line.startswith(("Switch", "Ca")))
    assert first.startswith("Ca"), "first record must be a host (the SM attaches there)"

    with IbsimFabric(str(net), str(tmp_path / "sim")) as fabric:
        run = fabric.run_opensm()
        assert run.returncode == 0 and run.subnet_up, run.log[-2000:]
        got_nodes, got_cables, port_guids, rates = parse_ibnetdiscover(fabric.ibnetdiscover())

    assert got_nodes == want_nodes
    assert got_cables == want_cables
    for (guid, port), port_guid in port_guids.items():
        assert port_guid == guid + port  # CA port GUID scheme
    assert rates == {"4xQDR"}


def test_torus_conf_lets_torus_2qos_route(tmp_path):
    conf = tmp_path / "torus-2QoS.conf"
    net = generate(tmp_path, ["torus", "--dims", "4x3", "--hosts-per-switch", "2",
                              "--torus-conf", str(conf)])
    with IbsimFabric(str(net), str(tmp_path / "sim")) as fabric:
        run = fabric.run_opensm(["-R", "torus-2QoS", "-Q", "--torus_config", str(conf)])
        assert run.returncode == 0 and run.subnet_up, run.log[-2000:]
        assert "Built 4 x 3 x 1 torus w/ 48 links, 12 switches, 24 CA ports" in run.log
        assert "torus-2QoS tables configured on all switches" in run.log


def test_roots_file_gives_updn_the_top_switches(tmp_path):
    roots = tmp_path / "roots.txt"
    net = generate(tmp_path, ["kary-ntree", "--k", "2", "--n", "3", "--roots", str(roots)])
    guids = roots.read_text().split()
    assert len(guids) == 4 and all(re.fullmatch(r"0x[0-9a-f]{16}", g) for g in guids)
    with IbsimFabric(str(net), str(tmp_path / "sim")) as fabric:
        # 0x08 (verbose) makes updn log each root it ranks.
        run = fabric.run_opensm(["-R", "updn", "-a", str(roots), "-D", "0x4b"])
        assert run.returncode == 0 and run.subnet_up, run.log[-2000:]
        assert "updn tables configured on all switches" in run.log
        for guid in guids:
            assert "Ranking root port GUID " + guid in run.log


def test_director_roots_are_the_fabric_chips(tmp_path):
    roots = tmp_path / "roots.txt"
    net = generate(tmp_path, ["director", "--model", "is5100", "--chassis", "2", "--bundle", "3",
                              "--roots", str(roots)])
    guids = roots.read_text().split()
    assert len(guids) == 3  # the first chassis of two
    with IbsimFabric(str(net), str(tmp_path / "sim")) as fabric:
        run = fabric.run_opensm(["-R", "updn", "-a", str(roots), "-D", "0x4b"])
        assert run.returncode == 0 and run.subnet_up, run.log[-2000:]
        assert "updn tables configured on all switches" in run.log
        for guid in guids:
            assert "Ranking root port GUID " + guid in run.log
        nodes, _, _, _ = parse_ibnetdiscover(fabric.ibnetdiscover())
    spines = {nodes[int(g, 16)][2] for g in guids}
    assert spines == {"MF0;dir1:IS5100/S%02d/U1" % s for s in (1, 2, 3)}
