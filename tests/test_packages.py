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


def _files_section(page):
    """The paths psssp(8)'s FILES section names for the package (its .I lines
    under /usr, not /usr/local, where make install puts them)."""
    text = open(os.path.join(ROOT, page)).read()
    files = text.split("\n.SH FILES\n", 1)[1].split("\n.SH ", 1)[0]
    return [line[3:].replace("\\-", "-") for line in files.splitlines()
            if line.startswith(".I /usr/") and not line.startswith(".I /usr/local")]


def test_the_files_psssp8_names_are_the_packages(installed):
    # Every path under /usr that psssp(8) names (<multiarch> for the
    # multiarch directory) is a file the package installed.
    arch = subprocess.run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"], capture_output=True,
                          text=True).stdout.strip()
    listed = set(dpkg("-L", "opensm-psssp").stdout.splitlines())
    named = [p.replace("<multiarch>", arch) for p in _files_section("opensm-plugin/psssp.8")]
    assert named, "psssp(8) names no file under /usr"
    assert [p for p in named if p not in listed] == [], sorted(listed)
