# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The Debian packages from `make deb` (dist/) install on this machine, and the
real /usr/sbin/opensm loads the installed plugin with nothing but the two
opensm.conf lines: no LD_LIBRARY_PATH, no build tree. The packages are
removed again afterwards, also when the test fails."""

import glob
import os
import subprocess

import pytest

from ibsim_session import IbsimFabric
from psssp_tools import ROOT, generate

DIST = os.environ.get("PSSSP_DIST", os.path.join(ROOT, "dist"))
PACKAGES = ["opensm-psssp", "psssp-tools"]


def debs():
    found = [sorted(glob.glob(os.path.join(DIST, "%s_*.deb" % p))) for p in PACKAGES]
    return [f[-1] for f in found if f]


def dpkg(*args):
    return subprocess.run(["dpkg"] + list(args), capture_output=True, text=True, timeout=300)


@pytest.fixture
def installed():
    files = debs()
    if len(files) != len(PACKAGES):
        pytest.skip("no packages in %s: run make deb (make test does)" % DIST)
    if os.geteuid() != 0:
        pytest.skip("installing packages needs root")
    for p in PACKAGES:
        assert dpkg("-s", p).returncode != 0, "%s is already installed: not touching it" % p
    try:
        res = dpkg("-i", *files)
        assert res.returncode == 0, res.stdout + res.stderr
        yield
    finally:
        dpkg("-r", *PACKAGES)
        assert all(dpkg("-s", p).returncode != 0 for p in PACKAGES)


def test_installed_plugin_routes_with_only_the_two_conf_lines(tmp_path, installed):
    plugin = subprocess.run(["dpkg", "-L", "opensm-psssp"], capture_output=True, text=True).stdout
    arch = subprocess.run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"], capture_output=True,
                          text=True).stdout.strip()
    assert "/usr/lib/%s/libpsssp.so" % arch in plugin.splitlines(), plugin
    version = subprocess.run(["/usr/bin/psssp-sim", "--version"], capture_output=True,
                             text=True).stdout.split()[-1]
    net = generate("kary-ntree", str(tmp_path / "fabric.net"), "--k", 4, "--n", 2)
    # An empty LD_LIBRARY_PATH: OpenSM's dlopen must find the plugin where the
    # package put it.
    with IbsimFabric(net, tmp_path) as fabric:
        osm = fabric.run_opensm([], conf="event_plugin_name psssp\nrouting_engine psssp\n",
                                env_extra={"LD_LIBRARY_PATH": ""})
        log = osm.log
    assert "psssp %s routing engine set up" % version in log, log[-3000:]
    assert "psssp tables configured on all switches" in log, log[-3000:]
