# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Independent Python reference for psssp-sim score and check.

Reads the fabric (ibnetdiscover) and the LFT dump (opensm-lfts.dump) with
its own minimal parsers, replays the flows psssp-sim wrote with
--dump-patterns, and recomputes every run value (1 / largest flow count on
the path, mean over flows; capacity-aware share) and from them eBB, min, max
and histogram; psssp-sim must agree to 1e-12. For check it traces every
ordered host pair itself and compares failure counts, hops and the edge
forwarding index.

psssp-sim is found as the scripts find it (psssp_tools.binary: $PSSSP_BUILD, else
build/, else PATH).
"""

import json
import os
import re
import subprocess

import pytest

from psssp_tools import binary

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTDATA = os.path.join(ROOT, "core", "formats", "testdata")
LANE_GBPS = {"??": 8.0, "SDR": 2.0, "DDR": 4.0, "QDR": 8.0, "FDR10": 10.0, "FDR": 13.64,
             "EDR": 25.0, "HDR": 50.0, "NDR": 100.0}


# ---------------------------------------------------------------- readers

def gbps(rate):
    m = re.match(r"(\d+|\?)x(\S+)$", rate or "")
    if not m:
        return 4 * 8.0
    lanes = 4 if m.group(1) == "?" else int(m.group(1))
    return lanes * LANE_GBPS.get(m.group(2), 8.0)


class Fabric:
    """nodes: name -> dict(type, guid, lid); ports: (name, port) -> dict(remote, rate, lid, lmc)."""

    def __init__(self, text):
        self.nodes, self.ports = {}, {}
        guid, current = None, None
        for line in text.splitlines():
            m = re.match(r"(?:switchguid|caguid)=0x([0-9a-fA-F]+)", line)
            if m:
                guid = int(m.group(1), 16)
                continue
            m = re.match(r'(Switch|Ca)\s+(\d+)\s+"([^"]+)"(.*)$', line)
            if m:
                current = m.group(3)
                lid = re.search(r"\blid (\d+)", m.group(4))
                self.nodes[current] = {"type": m.group(1), "guid": guid,
                                       "lid": int(lid.group(1)) if lid else 0}
                continue
            m = re.match(r'\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"([^"]+)"\[(\d+)\][^#]*#(.*)$', line)
            if m and current:
                port = int(m.group(1))
                comment = m.group(5)
                rate = re.findall(r"\b(\d+x[A-Z0-9?]+)", comment)
                entry = {"remote": (m.group(3), int(m.group(4))), "rate": rate[-1] if rate else "",
                         "lid": 0, "lmc": 0}
                own = re.match(r"\s*lid (\d+) lmc (\d+)", comment)
                if own and self.nodes[current]["type"] == "Ca":
                    entry["lid"], entry["lmc"] = int(own.group(1)), int(own.group(2))
                self.ports[(current, port)] = entry
        self.owner = {}  # LID -> host port
        self.hosts = []
        for key in sorted(self.ports, key=lambda k: (self.nodes[k[0]]["guid"], k[1])):
            p = self.ports[key]
            if self.nodes[key[0]]["type"] == "Ca" and p["lid"]:
                self.hosts.append(key)
                for k in range(1 << p["lmc"]):
                    self.owner[p["lid"] + k] = key
        self.switch_by_guid = {n["guid"]: name for name, n in self.nodes.items()
                               if n["type"] == "Switch"}

    def is_switch(self, name):
        return self.nodes[name]["type"] == "Switch"

    def capacity(self, channel):
        return gbps(self.ports[channel]["rate"])


def read_lfts(text, fabric):
    """switch name -> {lid: port} from opensm-lfts.dump."""
    lfts, current = {}, None
    for line in text.splitlines():
        m = re.search(r"of switch Lid \d+ guid 0x([0-9a-fA-F]+)", line)
        if m:
            current = fabric.switch_by_guid[int(m.group(1), 16)]
            lfts[current] = {}
            continue
        m = re.match(r"0x([0-9a-fA-F]+)\s+(\d+)\b", line)
        if m and current:
            lfts[current][int(m.group(1), 16)] = int(m.group(2))
    return lfts


def trace(fabric, lfts, src, dlid):
    """(status, channels, switch hops) of a packet from host port src to dlid."""
    channels = [src]
    here = fabric.ports[src]["remote"][0]
    hops = 0
    seen = set()
    while True:
        if here in seen:
            return "loop", channels, hops
        seen.add(here)
        out = lfts.get(here, {}).get(dlid, 255)
        if out == 255:
            return "black_hole", channels, hops
        if out == 0 or (here, out) not in fabric.ports:
            return ("wrong_delivery" if out == 0 else "unconnected"), channels, hops
        channels.append((here, out))
        nxt = fabric.ports[(here, out)]["remote"]
        if not fabric.is_switch(nxt[0]):
            return ("delivered" if fabric.owner.get(dlid) == nxt else "wrong_delivery"), channels, hops
        here = nxt[0]
        hops += 1


def run_values(fabric, lfts, flows):
    counts, paths = {}, []
    for src_lid, dlid in flows:
        status, path, _ = trace(fabric, lfts, fabric.owner[src_lid], dlid)
        assert status == "delivered", (src_lid, dlid, status)
        paths.append(path)
        for c in path:
            counts[c] = counts.get(c, 0) + 1
    plain, cap = 0.0, 0.0
    for path in paths:
        plain += 1.0 / max(counts[c] for c in path)
        share = min(fabric.capacity(c) / counts[c] for c in path)
        cap += min(1.0, share / fabric.capacity(path[0]))
    n = len(paths)
    return (plain / n, cap / n) if n else (1.0, 1.0)


def read_patterns(path):
    runs = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            runs.append([tuple(int(x) for x in pair.split(":")) for pair in line.split()])
    return runs


# ---------------------------------------------------------------- generated fabric

def fat_tree(leaves, hosts_per_leaf, spines, lmc=0, slow_spine=True):
    """ibnetdiscover text of a two-level fat tree; spine 0 cabled at 4xDDR."""
    lines, lid = [], 1
    sw_lid = {}
    for s in range(leaves + spines):
        sw_lid[s] = lid
        lid += 1
    host_lid = {}
    lid = -(-lid // (1 << lmc)) * (1 << lmc)  # base LIDs aligned to 2^LMC, as OpenSM assigns them
    for h in range(leaves * hosts_per_leaf):
        host_lid[h] = lid
        lid += 1 << lmc
    sw_guid = lambda s: 0x300000 + s
    host_guid = lambda h: 0x400000 + 2 * h
    sw_name = lambda s: "S-%016x" % sw_guid(s)
    host_name = lambda h: "H-%016x" % host_guid(h)
    desc = lambda s: ("leaf%d" % s) if s < leaves else ("spine%d" % (s - leaves))
    rate = lambda spine: "4xDDR" if slow_spine and spine == 0 else "4xQDR"
    for s in range(leaves + spines):
        lines += ["", "vendid=0x2c9", "devid=0xbd36", "sysimgguid=0x%x" % sw_guid(s),
                  "switchguid=0x%x(%x)" % (sw_guid(s), sw_guid(s))]
        nports = hosts_per_leaf + spines if s < leaves else leaves
        lines.append('Switch\t%d "%s"\t\t# "%s" base port 0 lid %d lmc 0'
                     % (nports, sw_name(s), desc(s), sw_lid[s]))
        if s < leaves:
            for k in range(hosts_per_leaf):
                h = s * hosts_per_leaf + k
                lines.append('[%d]\t"%s"[1](%x) \t\t# "node%d" lid %d 4xQDR'
                             % (k + 1, host_name(h), host_guid(h) + 1, h, host_lid[h]))
            for sp in range(spines):
                t = leaves + sp
                lines.append('[%d]\t"%s"[%d]\t\t# "%s" lid %d %s'
                             % (hosts_per_leaf + sp + 1, sw_name(t), s + 1, desc(t), sw_lid[t], rate(sp)))
        else:
            for leaf in range(leaves):
                lines.append('[%d]\t"%s"[%d]\t\t# "%s" lid %d %s'
                             % (leaf + 1, sw_name(leaf), hosts_per_leaf + s - leaves + 1, desc(leaf),
                                sw_lid[leaf], rate(s - leaves)))
    for h in range(leaves * hosts_per_leaf):
        leaf = h // hosts_per_leaf
        lines += ["", "vendid=0x2c9", "devid=0x1003", "sysimgguid=0x%x" % host_guid(h),
                  "caguid=0x%x" % host_guid(h), 'Ca\t1 "%s"\t\t# "node%d"' % (host_name(h), h),
                  '[1](%x) \t"%s"[%d]\t\t# lid %d lmc %d "%s" lid %d 4xQDR'
                  % (host_guid(h) + 1, sw_name(leaf), h % hosts_per_leaf + 1, host_lid[h], lmc,
                     desc(leaf), sw_lid[leaf])]

    def lft_dump(choose_spine):
        out = []
        for s in range(leaves + spines):
            out.append("Unicast lids [0-%d] of switch Lid %d guid 0x%016x ('%s'):"
                       % (lid - 1, sw_lid[s], sw_guid(s), desc(s)))
            entries = {sw_lid[s]: 0}
            for h in range(leaves * hosts_per_leaf):
                leaf = h // hosts_per_leaf
                for k in range(1 << lmc):
                    d = host_lid[h] + k
                    if s < leaves:
                        port = (h % hosts_per_leaf + 1 if leaf == s
                                else hosts_per_leaf + choose_spine(d) + 1)
                    else:
                        port = leaf + 1
                    entries[d] = port
            for d in sorted(entries):
                out.append("0x%04x %03d # generated" % (d, entries[d]))
            out.append("%d lids dumped" % len(entries))
        return "\n".join(out) + "\n"

    return "\n".join(lines) + "\n", lft_dump


# ---------------------------------------------------------------- tests

def sim(*args, check=True):
    return subprocess.run([binary("psssp-sim")] + [str(a) for a in args], capture_output=True,
                          text=True, check=check)


def compare_score(tmp_path, fabric_path, routes, extra, runs=300):
    dump = tmp_path / "patterns.txt"
    args = ["score", fabric_path]
    for r in routes:
        args += ["--routes", r]
    out = sim(*args, "--runs", runs, "--seed", 11, "--json", "--dump-patterns", dump, *extra)
    result = json.loads(out.stdout)
    fabric = Fabric(open(fabric_path).read())
    flows = read_patterns(dump)
    assert len(flows) == runs == result["runs"]
    assert result["hosts"] == len(fabric.hosts)
    for routing, res in zip(routes, result["results"]):
        lfts = read_lfts(open(routing).read(), fabric)
        values = [run_values(fabric, lfts, f) for f in flows]
        plain = [v[0] for v in values]
        assert abs(res["ebb"] - sum(plain) / runs) <= 1e-12
        assert abs(res["capacity_ebb"] - sum(v[1] for v in values) / runs) <= 1e-12
        assert res["min"] == min(plain) and res["max"] == max(plain)
        hist = [0] * len(res["histogram"])
        for v in plain:
            hist[min(len(hist) - 1, int(v * len(hist)))] += 1
        assert hist == res["histogram"]
    return result, flows, fabric


@pytest.mark.parametrize("pattern", ["bisect", "bisect-fb", "permutation"])
def test_fixture_tree2(tmp_path, pattern):
    f = os.path.join(TESTDATA, "tree2.ibnetdiscover")
    result, flows, fabric = compare_score(
        tmp_path, f, [os.path.join(TESTDATA, "tree2.opensm-lfts.dump")], ["--pattern", pattern])
    if pattern == "bisect":
        # 5 hosts (h1 has two ports: 6 host ports): 3 flows, six distinct ports.
        n = len(fabric.hosts)
        for run in flows:
            assert len(run) == n // 2
            ends = [fabric.owner[s] for s, _ in run] + [fabric.owner[d] for _, d in run]
            assert len(set(ends)) == 2 * (n // 2)
    # A 1xSDR spine cable makes the capacity-aware value differ.
    assert result["results"][0]["capacity_ebb"] < result["results"][0]["ebb"]


@pytest.mark.parametrize("lmc_path", ["first", "random", "hash"])
def test_fixture_lmc(tmp_path, lmc_path):
    f = os.path.join(TESTDATA, "tree2-lmc2.ibnetdiscover")
    _, flows, fabric = compare_score(
        tmp_path, f, [os.path.join(TESTDATA, "tree2-lmc2.opensm-lfts.dump")],
        ["--pattern", "bisect-fb", "--lmc-path", lmc_path])
    offsets = {d - fabric.ports[fabric.owner[d]]["lid"] for run in flows for _, d in run}
    assert (offsets == {0}) == (lmc_path == "first")


@pytest.mark.parametrize("k,expected", [(0, 0), (1, 1), (3, 3), (5, 1)])
def test_fixture_lmc_offset_is_one_class(tmp_path, k, expected):
    # offset:K sends every flow to base + (K mod 2^LMC): one LMC class (LMC 2 here).
    f = os.path.join(TESTDATA, "tree2-lmc2.ibnetdiscover")
    _, flows, fabric = compare_score(
        tmp_path, f, [os.path.join(TESTDATA, "tree2-lmc2.opensm-lfts.dump")],
        ["--pattern", "bisect-fb", "--lmc-path", "offset:%d" % k])
    offsets = {d - fabric.ports[fabric.owner[d]]["lid"] for run in flows for _, d in run}
    assert offsets == {expected}


@pytest.mark.parametrize("bad", ["offset:", "offset:128", "offset:-1", "offsets"])
def test_lmc_offset_out_of_range_is_refused(bad):
    f = os.path.join(TESTDATA, "tree2-lmc2.ibnetdiscover")
    res = sim("score", f, "--routes", os.path.join(TESTDATA, "tree2-lmc2.opensm-lfts.dump"),
              "--lmc-path", bad, check=False)
    assert res.returncode == 2, res.stderr
    assert "--lmc-path" in res.stderr and res.stdout == ""


def test_generated_two_routings(tmp_path):
    text, lft_dump = fat_tree(leaves=8, hosts_per_leaf=6, spines=4)
    fabric_path = tmp_path / "ft.ibnetdiscover"
    fabric_path.write_text(text)
    spread = tmp_path / "dmodk.dump"
    spread.write_text(lft_dump(lambda d: d % 4))
    single = tmp_path / "one-spine.dump"
    single.write_text(lft_dump(lambda d: 1))
    result, _, _ = compare_score(tmp_path, fabric_path, [spread, single], ["--pattern", "bisect"],
                                 runs=400)
    ebb = [r["ebb"] for r in result["results"]]
    assert ebb[0] > ebb[1]  # one spine for everything congests more
    # Same numbers with other thread counts (bit-identical).
    for threads in (1, 3):
        again = json.loads(sim("score", fabric_path, "--routes", spread, "--routes", single,
                               "--runs", 400, "--seed", 11, "--json", "--threads", threads).stdout)
        assert [r["ebb"] for r in again["results"]] == ebb
        assert [r["capacity_ebb"] for r in again["results"]] == \
            [r["capacity_ebb"] for r in result["results"]]


def test_generated_patterns(tmp_path):
    text, lft_dump = fat_tree(leaves=4, hosts_per_leaf=4, spines=2, lmc=1)
    fabric_path = tmp_path / "ft.ibnetdiscover"
    fabric_path.write_text(text)
    routes = tmp_path / "r.dump"
    routes.write_text(lft_dump(lambda d: d % 2))
    for pattern in ("shift", "ring", "recursive-doubling", "dissemination", "halo2d", "gather"):
        compare_score(tmp_path, fabric_path, [routes], ["--pattern", pattern, "--lmc-path", "hash"],
                      runs=20)
    compare_score(tmp_path, fabric_path, [routes], ["--pattern", "halo3d", "--grid", "2x2x4",
                                                    "--mapping", "random"], runs=20)


def reference_check(fabric, lfts):
    kinds, hop_sum, delivered, efi = {}, 0, 0, {}
    for src in fabric.hosts:
        for dlid, owner in fabric.owner.items():
            if owner == src:
                continue
            status, path, hops = trace(fabric, lfts, src, dlid)
            if status != "delivered":
                kinds[status] = kinds.get(status, 0) + 1
                continue
            delivered += 1
            hop_sum += hops
            for c in path:
                if fabric.is_switch(c[0]) and fabric.is_switch(fabric.ports[c]["remote"][0]):
                    efi[c] = efi.get(c, 0) + 1
    return kinds, delivered, hop_sum, max(efi.values(), default=0)


def test_check_against_reference(tmp_path):
    text, lft_dump = fat_tree(leaves=6, hosts_per_leaf=5, spines=3, lmc=1)
    fabric_path = tmp_path / "ft.ibnetdiscover"
    fabric_path.write_text(text)
    good = lft_dump(lambda d: d % 3)
    routes = tmp_path / "good.dump"
    routes.write_text(good)
    fabric = Fabric(text)
    out = sim("check", fabric_path, "--routes", routes, "--json")
    report = json.loads(out.stdout)
    kinds, delivered, hop_sum, efi_max = reference_check(fabric, read_lfts(good, fabric))
    assert not kinds and report["ok"] and report["delivered"] == delivered
    assert abs(report["hops"]["mean"] - hop_sum / delivered) < 1e-12
    assert report["edge_forwarding_index"]["max"] == efi_max

    # Break it: a black hole on leaf0, a loop between leaf2 and a spine, one
    # LID delivered to the wrong host on leaf1.
    lines = good.splitlines()

    def set_entry(switch, lid, port):
        header = next(i for i, l in enumerate(lines) if "'%s'" % switch in l)
        for i in range(header + 1, len(lines)):
            if lines[i].startswith("0x%04x " % lid):
                lines[i] = "0x%04x %03d # edited" % (lid, port)
                return
        raise AssertionError((switch, lid))

    host_lid = lambda h: fabric.ports[fabric.hosts[h]]["lid"]
    set_entry("leaf0", host_lid(12), 255)             # host 12 hangs off leaf2
    far = host_lid(22)                                # on leaf4
    set_entry("spine%d" % (far % 3), far, 3)          # spine bounces it back to leaf2
    set_entry("leaf1", host_lid(6) + 1, 3)            # host 6's second LID to host 7
    broken = "\n".join(lines) + "\n"
    bad = tmp_path / "bad.dump"
    bad.write_text(broken)
    out = sim("check", fabric_path, "--routes", bad, "--json", check=False)
    assert out.returncode == 1
    report = json.loads(out.stdout)
    kinds, delivered, _, _ = reference_check(fabric, read_lfts(broken, fabric))
    assert kinds and report["delivered"] == delivered
    for kind, n in kinds.items():
        assert report["failed_pairs"][kind] == n, kind
    assert sum(report["failed_pairs"].values()) == sum(kinds.values())
    text_out = sim("check", fabric_path, "--routes", bad, check=False).stdout
    for words in ("black hole", "wrong delivery", "loop", "cycle:"):
        assert words in text_out
