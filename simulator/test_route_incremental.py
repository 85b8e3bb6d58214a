# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""psssp-sim route --previous: the plugin's incremental re-routing offline.
A cable removed from the net file moves only the entries that used it (at
most twice as many change), every pair is still delivered, and with the
full routing as --reference the tables return to it exactly once the cable
is back."""

import json

from psssp_tools import binary, generate, run


def entries(path):
    out, switch = {}, None
    for line in open(path):
        if line.startswith("Unicast lids"):
            switch = line.split(" guid ")[1].split()[0]
        elif switch and line.startswith("0x"):
            lid, port = line.split()[:2]
            out[(switch, lid)] = int(port)
    return out


def switch_guids(lft_path):
    """Switch name -> the GUID its LFT dump header names."""
    names = {}
    for line in open(lft_path):
        if line.startswith("Unicast lids"):
            names[line.split("('")[1].split("'")[0]] = line.split(" guid ")[1].split()[0]
    return names


def entries_using(lft_entries, names, *ends):
    """Entries whose port is one of `ends`, (switch name, port) pairs."""
    ports = {(names[sw], int(port)) for sw, port in ends}
    return sum(1 for (g, _), p in lft_entries.items() if (g, p) in ports)


def without_cable(net_text, switch, port):
    """The net file with one switch-to-switch cable taken out at both ends."""
    lines, current, remote = net_text.splitlines(), None, None
    for line in lines:
        if line.startswith("Switch"):
            current = line.split('"')[1]
        elif current == switch and line.startswith("[%d]\t" % port):
            remote = (line.split('"')[1], line.split("[")[2].split("]")[0])
    assert remote, "no cable at %s[%d]" % (switch, port)
    kept, current = [], None
    for line in lines:
        if line.startswith("Switch"):
            current = line.split('"')[1]
        if current == switch and line.startswith("[%d]\t" % port):
            continue
        if current == remote[0] and line.startswith("[%s]\t" % remote[1]):
            continue
        kept.append(line)
    return "\n".join(kept) + "\n", remote


def test_previous_moves_few_entries_and_reference_restores(tmp_path):
    net = tmp_path / "f.net"
    generate("kary-ntree", str(net), "--k", 8, "--n", 3)
    full = tmp_path / "full.lfts"
    run([binary("psssp-sim"), "route", net, "-o", full])
    broken = tmp_path / "broken.net"
    text, (remote, remote_port) = without_cable(net.read_text(), "agg-5", 9)
    broken.write_text(text)

    inc = tmp_path / "inc.lfts"
    proc = run([binary("psssp-sim"), "route", broken, "--previous", full, "--json", "-o", inc])
    report = json.loads(proc.stdout)["incremental"]
    assert report["used"] and report["repaired"] > 0, report
    check = run([binary("psssp-sim"), "check", broken, "--routes", inc], check=False)
    assert check.returncode == 0, check.stdout[-2000:]

    before, after = entries(full), entries(inc)
    used = entries_using(before, switch_guids(full), ("agg-5", 9), (remote, remote_port))
    changed = sum(1 for k, p in after.items() if before.get(k) != p)
    assert 0 < used <= changed <= 2 * used, (used, changed)
    # An entry repaired and then moved again (shortcut, rebalancing) counts twice.
    assert report["repaired"] <= changed <= report["repaired"] + report["rebalanced"], report

    back = tmp_path / "back.lfts"
    run([binary("psssp-sim"), "route", net, "--previous", inc, "--reference", full, "-o", back])
    assert back.read_text() == full.read_text()


def test_previous_of_another_fabric_routes_in_full(tmp_path):
    a, b = tmp_path / "a.net", tmp_path / "b.net"
    generate("kary-ntree", str(a), "--k", 4, "--n", 3)
    generate("torus", str(b), "--dims", "4x4", "--hosts-per-switch", 2)
    lfts = tmp_path / "a.lfts"
    run([binary("psssp-sim"), "route", a, "-o", lfts])
    # Another fabric's tables name none of these switches: nothing to keep.
    proc = run([binary("psssp-sim"), "route", b, "--previous", lfts, "--json", "-o",
                tmp_path / "b.lfts"], check=False)
    if proc.returncode == 0:
        report = json.loads(proc.stdout)["incremental"]
        assert not report["used"] and "lost their next hop" in report["full_reason"], report
    else:
        assert proc.returncode == 2 and proc.stderr.strip(), proc.stderr


def test_repaired_torus_routes_are_layered_deadlock_free(tmp_path):
    """The repair keeps paths that are no longer minimal; the deadlock-free
    mode layers whatever tables it gets, so --vls still yields no credit
    loop."""
    net = tmp_path / "t.net"
    generate("torus", str(net), "--dims", "6x6", "--hosts-per-switch", 2)
    full = tmp_path / "full.lfts"
    run([binary("psssp-sim"), "route", net, "-o", full])
    broken = tmp_path / "broken.net"
    text, _ = without_cable(net.read_text(), "sw-2-2", 3)
    text, _ = without_cable(text, "sw-4-1", 5)
    broken.write_text(text)
    inc, layers = tmp_path / "inc.lfts", tmp_path / "inc.layers"
    proc = run([binary("psssp-sim"), "route", broken, "--previous", full, "--vls", 4,
                "--layers-out", layers, "--json", "-o", inc])
    report = json.loads(proc.stdout)["incremental"]
    assert report["used"] and report["repaired"] > 0, report
    check = run([binary("psssp-sim"), "check", broken, "--routes", inc, "--deadlock",
                 "--layers", layers], check=False)
    assert check.returncode == 0, check.stdout[-2000:]


def test_rebalance_per_lost_entry(tmp_path):
    """--rebalance Kx: after a fault at most K changes per entry that lost its
    hop. On a torus a cable few entries use (30 here; the one on port 5 of
    the same switch carries 320) costs the repair alone the default 2x; 4x
    moves more."""
    net = tmp_path / "t.net"
    generate("torus", str(net), "--dims", "8x8", "--hosts-per-switch", 4)
    full = tmp_path / "full.lfts"
    run([binary("psssp-sim"), "route", net, "-o", full])
    broken = tmp_path / "broken.net"
    text, (remote, remote_port) = without_cable(net.read_text(), "sw-3-3", 7)
    broken.write_text(text)
    before = entries(full)
    used = entries_using(before, switch_guids(full), ("sw-3-3", 7), (remote, remote_port))
    changed = {}
    for rebalance in ("auto", "4x"):
        out = tmp_path / ("inc-%s.lfts" % rebalance)
        run([binary("psssp-sim"), "route", broken, "--previous", full, "--rebalance", rebalance,
             "-o", out])
        check = run([binary("psssp-sim"), "check", broken, "--routes", out], check=False)
        assert check.returncode == 0, check.stdout[-2000:]
        changed[rebalance] = sum(1 for k, p in entries(out).items() if before.get(k) != p)
    assert 0 < used <= changed["auto"] <= 2 * used, (used, changed)
    assert changed["auto"] < changed["4x"] <= 4 * used, (used, changed)

    bad = run([binary("psssp-sim"), "route", broken, "--previous", full, "--rebalance", "0x",
               "-o", tmp_path / "bad.lfts"], check=False)
    assert bad.returncode == 2 and "--rebalance is 'auto', 'off', N" in bad.stderr, bad.stderr
    assert not (tmp_path / "bad.lfts").exists()
