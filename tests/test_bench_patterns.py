# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""bench/bench_patterns.py on the smallest rail-optimised tree with two
engines: compare-engines routes in OpenSM on ibsim, every (pattern, mapping)
cell is scored on the kept tables, and the family's table names the best
other engine and psssp's difference in each cell."""

import csv
import os
import re
import subprocess
import sys

from psssp_tools import build_env

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench",
                     "bench_patterns.py")


def test_every_cell_is_scored_against_the_best_other_engine(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(BENCH), "..", "scripts"),
               **build_env())
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, BENCH, "--only", "rail-1x8x8", "--engines", "minhop,psssp",
         "--patterns", "shift,bisect", "--mappings", "linear,hostname", "--runs", "20",
         "--timeout", "120", "--out", str(out)], capture_output=True, text=True, env=env,
        timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(out / "cells.csv") as f:
        cells = list(csv.DictReader(f))
    assert {(c["pattern"], c["mapping"]) for c in cells} == {
        (p, m) for p in ("shift", "bisect") for m in ("linear", "hostname")}
    for c in cells:
        assert c["family"] == "rail-optimized" and c["hosts"] == "64"
        assert c["best_engine"] == "minhop", c
        assert abs(float(c["psssp"]) - float(c["best"]) - float(c["delta"])) < 1e-4
        # shift runs every phase once (exact); bisect draws its pairs.
        assert (float(c["ci95"]) == 0) == (c["pattern"] == "shift"), c
        assert c["behind"] == ("yes" if float(c["delta"]) < -max(float(c["ci95"]), 0.001)
                               else "no")
    table = (out / "patterns.md").read_text()
    assert "## rail-optimized (" in table
    rows = [l for l in table.splitlines() if l.startswith("| rail-1x8x8 (64) |")]
    assert len(rows) == 2
    for row in rows:
        assert len(re.findall(r"[-+]\d\.\d{4} (?:exact|±\d\.\d{4}) minhop", row)) == 2, row
