"""The ibsim/OpenSM harness itself: isolation, clean-up, console faults."""

import os

from ibsim_session import IbsimFabric

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
        run = a.run_opensm(["-R", "minhop"])
        assert run.returncode == 0 and run.subnet_up, run.log[-2000:]
        # Only fabric a has been programmed: b's switches still hold no routes.
        assert a.dump_fts().count("6 valid lids dumped") == 2
        pid = b._ibsim.pid
    assert not _alive(pid)


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
