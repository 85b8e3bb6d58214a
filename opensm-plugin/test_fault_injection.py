# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Routing that fails inside the real OpenSM must not take it down: the test
build of the plugin (libpsssp_faultinject.so) makes a parallel task of the
routing throw std::bad_alloc; the fence turns it into an error return, OpenSM
logs it, falls back to its own engine and brings the subnet up with complete
tables (read back from the emulated switches)."""

import os

import pytest

from ibsim_session import IbsimFabric
from psssp_tools import binary, generate, plugin_env, run

CONFIGURED = "psssp tables configured on all switches"


def faultinject_conf():
    return ("event_plugin_name psssp_faultinject\n"
            "routing_engine psssp\n"
            "event_plugin_options threads=2\n")


# Task 1 and 2 are the two workers of the first parallel step (one runs on
# OpenSM's sweeper thread, the other on a helper); 9 lands later in routing.
@pytest.mark.parametrize("fault_at", [1, 2, 9])
def test_routing_failure_is_fenced_and_opensm_falls_back(tmp_path, fault_at):
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 3)
    env = dict(plugin_env(), PSSSP_FAULT_AT_TASK=str(fault_at))
    with IbsimFabric(net, tmp_path) as fabric:
        osm = fabric.run_opensm([], conf=faultinject_conf(), env_extra=env)
        log = osm.log
        assert osm.returncode == 0, log[-3000:]
        assert "psssp routing failed: out of memory" in log, log[-3000:]
        assert CONFIGURED not in log
        assert "minhop tables configured on all switches" in log, log[-3000:]
        assert "SUBNET UP" in log, log[-3000:]
        fts = tmp_path / "fts.dump"
        fts.write_text(fabric.dump_fts())
        topo = tmp_path / "fabric.topo"
        topo.write_text(fabric.ibnetdiscover())
    check = run([binary("psssp-sim"), "check", topo, "--routes", fts], check=False)
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr[-3000:]
