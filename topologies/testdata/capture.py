#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Regenerates the ibnetdiscover captures of generated fabrics used by
generated_capture_test.cc: psssp-topo -> ibsim -> OpenSM -> ibnetdiscover.

    PYTHONPATH=scripts topologies/testdata/capture.py

psssp-topo is found as the scripts find it (psssp_tools.binary: $PSSSP_BUILD,
else build/, else PATH).
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

from ibsim_session import IbsimFabric  # scripts/, on PYTHONPATH
from psssp_tools import binary

TOPO = binary("psssp-topo")

# name -> psssp-topo arguments; generated_capture_test.cc builds the same fabrics.
CASES = {
    "fattree2-dual": ["fattree2", "--leaves", "3", "--hosts-per-leaf", "2", "--spines", "2",
                      "--cables", "2", "--hosts-per-spine", "1", "--dual-port"],
    "torus-failed": ["torus", "--dims", "3x3", "--fail", "0.2", "--seed", "2"],
}

for name, args in CASES.items():
    with tempfile.TemporaryDirectory() as tmp:
        net = os.path.join(tmp, "fabric.net")
        subprocess.run([TOPO] + args + ["-o", net], check=True)
        with IbsimFabric(net, tmp) as fabric:
            run = fabric.run_opensm()
            if not run.subnet_up:
                sys.exit("%s: OpenSM did not bring the subnet up" % name)
            text = fabric.ibnetdiscover()
    # The first lines carry the capture date; drop them so captures are stable.
    lines = [line for line in text.splitlines() if not line.startswith("# Topology file:")]
    with open(os.path.join(HERE, name + ".ibnetdiscover"), "w") as f:
        f.write("# psssp-topo " + " ".join(args) + "\n" + "\n".join(lines) + "\n")
