# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""psssp-topo(1) renders without groff warnings and names every family the
binary knows."""

import os
import re
import subprocess

from psssp_tools import binary

TOPO = binary("psssp-topo")

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "psssp-topo.1")


def test_man_page_renders_and_lists_every_family():
    proc = subprocess.run(["man", "--warnings", "-l", PAGE], capture_output=True, text=True,
                          env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    text = re.sub(r".\x08", "", proc.stdout).replace("\u2010", "-")
    usage = subprocess.run([TOPO, "--help"], capture_output=True, text=True, check=True).stdout
    families = [m.group(1) for m in re.finditer(r"^  ([a-z][a-z0-9-]*) ", usage, re.M)]
    assert len(families) == 15
    for family in families:
        assert re.search(r"^\s+" + re.escape(family) + r"\b", text, re.M), family


def test_man_page_names_every_family_option():
    with open(PAGE) as f:
        source = f.read().replace("\\-", "-")
    usage = subprocess.run([TOPO, "--help"], capture_output=True, text=True, check=True).stdout
    for family in re.findall(r"^  ([a-z][a-z0-9-]*) ", usage, re.M):
        options = subprocess.run([TOPO, family, "--help"], capture_output=True, text=True,
                                 check=True).stdout
        for option in re.findall(r"^\s+(--[a-z][a-z0-9-]*)", options, re.M):
            assert re.search(re.escape(option) + r"\b", source), (family, option)
