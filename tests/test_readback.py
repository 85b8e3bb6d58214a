# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""dump_fts output read back from ibsim's switches parses with the project's
readers and agrees with OpenSM's own opensm-lfts.dump of the same run."""

import pytest

from ibsim_session import IbsimFabric
from psssp_tools import binary, generate, run

FABRICS = {
    "fat-tree": ("fattree2", "--leaves", 4, "--hosts-per-leaf", 5, "--spines", 2, "--cables", 2),
    "torus-lmc": ("torus", "--dims", "3x3", "--hosts-per-switch", 2),
    "dragonfly": ("dragonfly", "--a", 4, "--p", 2, "--h", 2),
}


@pytest.mark.parametrize("name", sorted(FABRICS))
def test_dump_fts_agrees_with_opensm_lfts_dump(tmp_path, name):
    net = generate(FABRICS[name][0], str(tmp_path / "f.net"), *FABRICS[name][1:])
    lmc = ["-l", "1"] if "lmc" in name else []
    with IbsimFabric(net, tmp_path) as fabric:
        osm = fabric.run_opensm(["-R", "minhop"] + lmc)
        fts = tmp_path / "switches.fts"
        fts.write_text(fabric.dump_fts())
        topo = tmp_path / "f.topo"
        topo.write_text(fabric.ibnetdiscover())
    res = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--same-as",
               osm.dump("opensm-lfts.dump")], check=False)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert "tables identical" in res.stdout

    # The comparison can fail: one changed entry is reported.
    lines = fts.read_text().splitlines(keepends=True)
    i = next(k for k, l in enumerate(lines) if l.startswith("0x") and " : " in l)
    port = int(lines[i].split()[1])
    lines[i] = lines[i].replace(" %03u " % port, " %03u " % (port % 2 + 1), 1)
    fts.write_text("".join(lines))
    res = run([binary("psssp-sim"), "check", topo, "--routes", fts, "--same-as",
               osm.dump("opensm-lfts.dump")], check=False)
    assert res.returncode == 1 and "differs: " in res.stdout
