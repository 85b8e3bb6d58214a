# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""psssp-sim check's reports on fabrics and tables that are unusual but
valid: switch cables no host route crosses, and dump_fts output with the
entries infiniband-diags 44's dump_fts leaves out."""

import json

import pytest

from ibsim_session import IbsimFabric, find_tool
from psssp_tools import binary, generate, run

SIM = binary("psssp-sim")

# Two switches cabled together, both hosts on the first: the switch cables
# exist, but no host-to-host route crosses one.
ONE_SWITCH_HOSTS = """\
Hca 1 "h1"
[1] "s1"[1]

Hca 1 "h2"
[1] "s1"[2]

Switch 4 "s1"
[1] "h1"[1]
[2] "h2"[1]
[3] "s2"[1]

Switch 4 "s2"
[1] "s1"[3]
"""


def test_json_without_busiest_link(tmp_path):
    net = tmp_path / "f.net"
    net.write_text(ONE_SWITCH_HOSTS)
    lfts = tmp_path / "f.lfts"
    run([SIM, "route", net, "-o", lfts])
    proc = run([SIM, "check", net, "--routes", lfts, "--json"], check=False)
    assert proc.returncode == 0, proc.stderr
    efi = json.loads(proc.stdout)["edge_forwarding_index"]
    assert efi["links"] == 2 and efi["max"] == 0
    assert "max_link" not in efi
    text = run([SIM, "check", net, "--routes", lfts]).stdout
    assert "all routes deliver" in text and "busiest" not in text


# A switch with 130 ports, hosts on ports 1, 2, 128 and 130.
WIDE_SWITCH = """\
Hca 1 "h1"
[1] "s1"[1]

Hca 1 "h2"
[1] "s1"[2]

Hca 1 "h128"
[1] "s1"[128]

Hca 1 "h130"
[1] "s1"[130]

Switch 130 "s1"
[1] "h1"[1]
[2] "h2"[1]
[128] "h128"[1]
[130] "h130"[1]
"""


@pytest.fixture(scope="module")
def captures(tmp_path_factory):
    """Plain dump_fts (infiniband-diags 44), opensm-lfts.dump and opensm.fdbs
    of one OpenSM run (minhop) on ibsim, per fabric: a 4x4 torus with 3 hosts
    per switch (LIDs 1-64: every switch's top LID is 64) and the wide switch."""
    out = {}
    d = tmp_path_factory.mktemp("dump-fts")
    nets = {"torus": generate("torus", str(d / "torus.net"), "--dims", "4x4",
                              "--hosts-per-switch", 3),
            "wide": d / "wide.net"}
    nets["wide"].write_text(WIDE_SWITCH)
    for name, net in nets.items():
        with IbsimFabric(net, d / name) as fabric:
            osm = fabric.run_opensm(["-R", "minhop"])
            assert osm.subnet_up, osm.log[-2000:]
            fts = d / (name + ".dump_fts")
            fts.write_text(run([find_tool("dump_fts")], env=fabric.client_env()).stdout)
        out[name] = (osm.dump("opensm-subnet.lst"), fts, osm.dump("opensm-lfts.dump"),
                     osm.dump("opensm.fdbs"))
    return out


@pytest.mark.parametrize("name,dropped", [("torus", "16 entries at the switches' top LID (64"),
                                          ("wide", "2 entries on switches with more than 127")])
def test_dump_fts_omissions_named(captures, name, dropped):
    lst, fts, lfts, _ = captures[name]
    # OpenSM's own dump: every route delivers.
    assert run([SIM, "check", lst, "--routes", lfts]).returncode == 0
    proc = run([SIM, "check", lst, "--routes", fts], check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAILED" in proc.stdout and "dump_fts dropped " + dropped in proc.stdout, proc.stdout
    assert "opensm-lfts.dump" in proc.stdout
    report = json.loads(run([SIM, "check", lst, "--routes", fts, "--json"],
                            check=False).stdout)
    assert not report["ok"]
    assert report["dump_fts_dropped"]["message"].startswith("dump_fts dropped " + dropped)
    assert report["dump_fts_dropped"]["pairs"] == report["pairs"] - report["delivered"]


def test_other_black_holes_not_blamed_on_dump_fts(captures, tmp_path):
    """A black hole beside dump_fts's omissions (one more entry taken out)
    is not explained away."""
    lst, fts, _, _ = captures["torus"]
    text = fts.read_text()
    at = text.index("\n0x0001 ") + 1
    broken = tmp_path / "broken.dump_fts"
    broken.write_text(text[:at] + text[text.index("\n", at) + 1:])
    proc = run([SIM, "check", lst, "--routes", broken], check=False)
    assert proc.returncode == 1 and "black hole" in proc.stdout
    assert "dump_fts dropped" not in proc.stdout


def test_fdbs_reads_as_the_lfts_dump(captures):
    """OpenSM's opensm.fdbs scores and checks exactly as its opensm-lfts.dump
    of the same run (the LFT dump is read with its port GUIDs, the .fdbs
    without: the LIDs are the same run's)."""
    lst, _, lfts, fdbs = captures["torus"]
    scores = [json.loads(run([SIM, "score", lst, "--routes", r, "--name", "t", "--runs", 200,
                              "--json"]).stdout) for r in (lfts, fdbs)]
    drop = ("seconds", "routes", "fabric")

    def plain(x):
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items() if not any(d in k for d in drop)}
        if isinstance(x, list):
            return [plain(v) for v in x]
        return x
    assert plain(scores[0]) == plain(scores[1])
    # minhop on a torus: every pair delivered, and a credit loop (exit 1).
    procs = [run([SIM, "check", lst, "--routes", r, "--json", "--deadlock"], check=False)
             for r in (lfts, fdbs)]
    checks = [json.loads(p.stdout) for p in procs]
    assert checks[0]["ok"] and not checks[0]["deadlock"]["deadlock_free"]
    assert [p.returncode for p in procs] == [1, 1] and plain(checks[0]) == plain(checks[1])
    same = run([SIM, "check", lst, "--routes", fdbs, "--same-as", lfts]).stdout
    assert "tables identical" in same


def test_deadlock_scopes_reported(captures):
    """check --deadlock gives the verdict for host-to-host routes and for all
    routes (switch LIDs too), in text and JSON; --deadlock-scope picks the
    one that sets the exit status."""
    lst, _, lfts, _ = captures["torus"]
    text = run([SIM, "check", lst, "--routes", lfts, "--deadlock"], check=False).stdout
    assert "  host-to-host routes: CYCLE" in text, text
    assert "  all routes (switch LIDs included): CYCLE" in text, text
    assert "verdict (exit status) from all routes (--deadlock-scope all)" in text
    for scope in ("hosts", "all"):
        proc = run([SIM, "check", lst, "--routes", lfts, "--deadlock", "--json",
                    "--deadlock-scope", scope], check=False)
        loops = json.loads(proc.stdout)["deadlock"]
        assert proc.returncode == 1 and loops["scope"] == scope
        assert loops["deadlock_free"] is False and loops["cycle"] == loops[scope]["cycle"]
        assert loops["all"]["routes"] > loops["hosts"]["routes"] == 48 * 48
        assert loops["all"]["switch_routes_failed"] == {"dead_end": 0, "dead_port": 0, "loop": 0}
    bad = run([SIM, "check", lst, "--routes", lfts, "--deadlock", "--deadlock-scope", "some"],
              check=False)
    assert bad.returncode == 2 and "--deadlock-scope" in bad.stderr
