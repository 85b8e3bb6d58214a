# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""libpsssp_pathsl.so: the SL of every path from a host, written after
routing, is what the running SM's SA answers in PathRecords."""

import os
import random
import re
import shutil
import subprocess

import pytest

import path_sls
from ibsim_session import IbsimFabric
from psssp_tools import generate, plugin_env

# infiniband-diags puts saquery in /usr/sbin, which a user's PATH may lack.
SAQUERY = shutil.which("saquery", path=os.pathsep.join([os.environ.get("PATH", os.defpath),
                                                        "/usr/sbin", "/sbin"])) or "saquery"
SL_LINE = re.compile(r"^\s*sl\.+0x([0-9a-fA-F]+)\s*$", re.M)


def _dump_lines(path):
    with open(path) as f:
        return [tuple(int(x) for x in l.split()) for l in f if not l.startswith("#")]


def test_dump_matches_sa_path_records(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4", "--hosts-per-switch", 2)
    with IbsimFabric(net, tmp_path) as fabric:
        osm = fabric.start_opensm(["-R", "lash", "-Q"], conf="event_plugin_name psssp_pathsl\n",
                                  env_extra=plugin_env())
        osm.wait_for_log(r"SUBNET UP")
        osm.wait_for_log(r"psssp_pathsl: SLs of \d+ paths \(engine lash\)")
        lines = _dump_lines(osm.run.dump("psssp-path-sl.dump"))
        # 32 hosts to 31 other hosts and 16 switches.
        assert len(lines) == 32 * (31 + 16)
        assert {sl for _, _, sl in lines} == {0, 1}  # lash needs two layers on a 4x4 torus
        random.seed(7)
        sample = random.sample([l for l in lines if l[2] == 1], 5) + \
            random.sample([l for l in lines if l[2] == 0], 5)
        for slid, dlid, sl in sample:
            pr = subprocess.run([SAQUERY, "-p", "--src-to-dst", "%d:%d" % (slid, dlid)],
                                env=fabric.client_env(), capture_output=True, text=True,
                                timeout=60)
            found = SL_LINE.findall(pr.stdout)
            assert pr.returncode == 0 and len(found) == 1, pr.stdout + pr.stderr
            assert int(found[0], 16) == sl, (slid, dlid, sl, pr.stdout)


def test_engine_without_path_sl_writes_header_only(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "3x3")
    with IbsimFabric(net, tmp_path) as fabric:
        osm = fabric.run_opensm(["-R", "minhop"], conf="event_plugin_name psssp_pathsl\n",
                                env_extra=plugin_env())
        with open(osm.dump("psssp-path-sl.dump")) as f:
            text = f.read()
        assert "# routing engine minhop;" in text
        assert "has no path_sl: every path is on SL 0" in text
        assert not [l for l in text.splitlines() if not l.startswith("#")]


def test_more_paths_than_the_limit_are_not_written(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "3x3")
    with IbsimFabric(net, tmp_path) as fabric:
        env = dict(plugin_env(), PSSSP_PATHSL_MAX_PATHS="50")
        osm = fabric.run_opensm(["-R", "lash", "-Q"], conf="event_plugin_name psssp_pathsl\n",
                                env_extra=env)
        dump = osm.dump("psssp-path-sl.dump")
        with open(dump) as f:
            text = f.read()
        # 9 hosts to 8 hosts and 9 switches: 153 paths, over the limit of 50.
        assert "# not written: 153 paths, more than the limit of 50\n" in text
        assert not [l for l in text.splitlines() if not l.startswith("#")]
        with pytest.raises(ValueError, match="not written: 153 paths"):
            path_sls.read_header(dump)
