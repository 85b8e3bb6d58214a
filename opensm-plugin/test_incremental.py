# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Incremental re-routing inside the real OpenSM: a cable unlinked in ibsim
while OpenSM runs moves only the entries that used it (at most twice as many
change), every pair is still delivered, and the cable carries routes again
once it is relinked: every moved entry returns to its original route. The entries are compared as the emulated switches hold
them (dump_fts before and after)."""

from ibsim_session import IbsimFabric
from psssp_tools import generate, plugin_env, psssp_conf
from test_plugin import CONFIGURED, _entries, check_tables

INCREMENTAL = "psssp: incremental re-route:"


def _switch_guids(net_path):
    guids, guid = {}, None
    for line in open(net_path):
        if line.startswith("switchguid="):
            guid = int(line.split("=")[1], 16)
        elif line.startswith("Switch") and guid is not None:
            guids[line.split('"')[1]] = guid
            guid = None
    return guids


def _switch_cables(net_path, guids):
    """(switch, port, remote switch, remote port) of every switch-to-switch
    cable end in the net file."""
    switch = None
    for line in open(net_path):
        line = line.strip()
        if line.startswith("Switch"):
            switch = line.split('"')[1]
        elif switch and line.startswith("[") and '"' in line:
            remote = line.split('"')[1]
            if remote in guids:
                remote_port = int(line.split('"')[2].split("[")[1].split("]")[0])
                yield switch, int(line[1:line.index("]")]), remote, remote_port
        elif not line:
            switch = None


def _spine_cable(net_path, guids):
    """(switch, port, remote switch, remote port): the first aggregation-to-top cable."""
    for cable in _switch_cables(net_path, guids):
        if cable[0].startswith("agg") and not cable[2].startswith("leaf"):
            return cable
    raise AssertionError("no aggregation-to-top cable in " + net_path)


def _using(entries, guid, port):
    return sum(1 for (g, _), p in entries.items() if g == guid and p == port)


def test_cable_down_moves_few_entries_and_up_uses_it_again(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 3)
    guids = _switch_guids(net)
    sw, port, remote, remote_port = _spine_cable(net, guids)
    with IbsimFabric(net, tmp_path, console=True) as fabric:
        sm = fabric.start_opensm(conf=psssp_conf(), env_extra=plugin_env())
        sm.wait_for_log(CONFIGURED)
        _, fts, _ = check_tables(tmp_path, fabric, "before")
        before = _entries(fts.read_text())
        used = _using(before, guids[sw], port) + _using(before, guids[remote], remote_port)
        assert used > 0

        fabric.console('Unlink "%s"[%d]' % (sw, port))
        sm.wait_for_log(CONFIGURED, count=2, timeout=120)
        assert INCREMENTAL in sm.run.log, sm.run.log[-3000:]
        _, fts, _ = check_tables(tmp_path, fabric, "down")
        down = _entries(fts.read_text())
        assert _using(down, guids[sw], port) == 0
        changed = sum(1 for k, p in down.items() if before.get(k) != p)
        assert used <= changed <= 2 * used, (used, changed)

        fabric.console('ReLink "%s"[%d]' % (sw, port))
        sm.wait_for_log(CONFIGURED, count=3, timeout=120)
        assert sm.run.log.count(INCREMENTAL) == 2, sm.run.log[-3000:]
        _, fts, _ = check_tables(tmp_path, fabric, "up")
        up = _entries(fts.read_text())
        assert _using(up, guids[sw], port) > 0, "the relinked cable carries no routes"
        # The moved entries return to the routes of the first (full) routing.
        assert up == before, sum(1 for k, p in up.items() if before.get(k) != p)


def _least_used_port(net_path, switch, entries, guids):
    """(port, used): of `switch`'s cables to other switches, the one the
    fewest entries of both ends use."""
    return min(((port, _using(entries, guids[sw], port) + _using(entries, guids[far], far_port))
                for sw, port, far, far_port in _switch_cables(net_path, guids) if sw == switch),
               key=lambda p_used: p_used[1])


def test_rebalance_per_lost_entry_on_a_torus(tmp_path):
    """rebalance=4x reaches the engine: on a torus, where the repair of a
    lightly used cable spends the default 2x on its own (with auto exactly
    2x here), the re-sweep moves more than twice the entries that used the
    cable and at most four times, and the relink still restores the first
    routing."""
    net = generate("torus", str(tmp_path / "fabric.net"), "--dims", "8x8",
                   "--hosts-per-switch", 4)
    guids = _switch_guids(net)
    with IbsimFabric(net, tmp_path, console=True) as fabric:
        sm = fabric.start_opensm(conf=psssp_conf("rebalance=4x"), env_extra=plugin_env())
        sm.wait_for_log(CONFIGURED)
        assert "rebalance=4x" in sm.run.log, sm.run.log[-3000:]
        _, fts, _ = check_tables(tmp_path, fabric, "before")
        before = _entries(fts.read_text())
        port, used = _least_used_port(net, "sw-3-3", before, guids)
        assert used > 0

        fabric.console('Unlink "sw-3-3"[%d]' % port)
        sm.wait_for_log(CONFIGURED, count=2, timeout=120)
        assert INCREMENTAL in sm.run.log, sm.run.log[-3000:]
        _, fts, _ = check_tables(tmp_path, fabric, "down")
        down = _entries(fts.read_text())
        changed = sum(1 for k, p in down.items() if before.get(k) != p)
        assert 2 * used < changed <= 4 * used, (used, changed)

        fabric.console('ReLink "sw-3-3"[%d]' % port)
        sm.wait_for_log(CONFIGURED, count=3, timeout=120)
        _, fts, _ = check_tables(tmp_path, fabric, "up")
        assert _entries(fts.read_text()) == before
