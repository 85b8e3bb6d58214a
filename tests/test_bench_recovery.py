# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""bench/bench_recovery.py on a small fabric: one cable fails under a resident
OpenSM per engine, the recovery is timed from OpenSM's log, and the tables
the switches hold afterwards deliver every connected pair without that cable."""

import os
import re
import subprocess
import sys

from psssp_tools import build_env

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench",
                     "bench_recovery.py")


def test_recovery_is_timed_and_tables_avoid_the_dead_cable(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(BENCH), "..", "scripts"),
               **build_env())
    proc = subprocess.run(
        [sys.executable, BENCH, "--topology", "kary-ntree --k 4 --n 3", "--engines",
         "psssp,minhop", "--cables", "1", "--seed", "2", "--check", "--timeout", "120",
         "--workdir", str(tmp_path)], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    for engine in ("psssp", "minhop"):
        # One recovery per engine, by that engine (not a fallback), checked.
        lines = [l for l in out.splitlines() if l.startswith("  %s " % engine)]
        assert len(lines) == 1, out
        assert "tables check ok" in lines[0] and "tables by" not in lines[0], out
        assert re.search(r"before routing [0-9.]+ s \([1-9][0-9]* discoveries\)", lines[0]), out
        row = re.search(r"^\| %s \| [0-9.]+ \| [0-9.]+ \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) "
                        r"\| ([0-9.]+) \| ([0-9.]+) \|$" % engine, out, re.M)
        assert row, out
        configured, acked, window, before, _share = (float(x) for x in row.groups())
        assert 0 <= window <= configured <= acked, out
        # OpenSM discovers before any engine routes: the re-sweep's routing
        # starts after the unlink and before its tables are configured.
        assert 0 < before <= configured, out
    assert re.search(r"^\| minhop \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$", out, re.M), out
    assert re.search(r"one OpenSM discovery \(psssp [01], minhop [01]\)", out), out
