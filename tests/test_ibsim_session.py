# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The ibsim/OpenSM harness itself: isolation, clean-up, console faults."""

import os
import re
import subprocess

from ibsim_session import IbsimFabric, find_umad2sim

NET = "/usr/share/doc/ibsim-utils/net-examples/net.2sw2path4hca"


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_two_sessions_are_isolated_and_cleaned_up(tmp_path):
    with IbsimFabric(NET, tmp_path / "a") as a, IbsimFabric(NET, tmp_path / "b") as b:
        assert a.sockname != b.sockname
        waited = []
        every = 0.005
        run = a.run_opensm(["-R", "minhop"], waiting=waited.append, every=every)
        assert run.returncode == 0 and run.subnet_up, run.log[-2000:]
        # The progress callback ran while OpenSM did, with growing times. A
        # fast machine brings this fabric up in well under a second, so the
        # period is short; a run that outlasts several periods must report.
        assert waited == sorted(waited) and all(0 < w <= run.seconds for w in waited)
        if run.seconds >= 10 * every:
            assert waited, run.seconds
        assert a.dump_fts().count("6 valid lids dumped") == 2
        pid = b._ibsim.pid
    assert not _alive(pid)


def test_run_once_opensm_waits_instead_of_spinning(tmp_path):
    # opensm -o waits for SUBNET UP in slices of its sweep interval; with
    # -s 0 its main thread spins on a core while the engine routes. The
    # interval it parsed is on its standard output.
    with IbsimFabric(NET, tmp_path) as fabric:
        run = fabric.run_opensm(["-R", "minhop"])
        assert run.returncode == 0 and run.subnet_up, run.log[-2000:]
        with open(os.path.join(run.workdir, "opensm.out")) as f:
            parsed = re.findall(r"^ sweep interval = (\d+)$", f.read(), re.M)
        assert parsed and int(parsed[-1]) > 0, parsed


def test_console_unlink_triggers_resweep(tmp_path):
    with IbsimFabric(NET, tmp_path, console=True) as fabric:
        sm = fabric.start_opensm(["-R", "minhop"])
        sm.wait_for_log("SUBNET UP")
        before = fabric.dump_fts()
        fabric.console('Unlink "Switch1"[3]')
        sm.wait_for_log("SUBNET UP", count=2, timeout=60)
        after = fabric.dump_fts()
        assert " 003 : (Switch portguid 0x0000000000200001" in before
        assert " 003 : " not in after.split("(Switch1):")[1]
        pid = sm.proc.pid
    assert not _alive(pid)


def test_dump_fts_includes_top_lid_on_a_64_boundary(tmp_path):
    # 64 switches + 64 hosts: the highest LID is 128, the first of LFT block 2,
    # which dump_fts alone leaves out. The harness reads it from the switches.
    from psssp_tools import binary, generate, run

    net = generate("torus", str(tmp_path / "t.net"), "--dims", "8x8")
    with IbsimFabric(net, tmp_path, console=True) as fabric:
        fabric.run_opensm(["-R", "minhop"])
        fts = fabric.dump_fts()
        topo = tmp_path / "t.topo"
        topo.write_text(fabric.ibnetdiscover())
    assert fts.count("\n0x0080 ") == 64
    (tmp_path / "t.fts").write_text(fts)
    run([binary("psssp-sim"), "check", topo, "--routes", tmp_path / "t.fts"])


def test_umad2sim_is_the_installed_package_file():
    listed = subprocess.run(["dpkg-query", "-L", "libumad2sim0"], capture_output=True,
                            text=True, check=True).stdout.split()
    path = find_umad2sim()
    assert path in listed and path.endswith("/umad2sim/libumad2sim.so")
