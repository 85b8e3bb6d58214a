# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The path-SL dump of the psssp_pathsl OpenSM event plugin
(opensm-plugin/path_sl_dump.c): the SL the SA gives every host pair's path,
as "SLID DLID SL" lines (the SL file format of psssp-sim check --sl-file),
after a header of "#" lines. Only the header is read here: the paths
(millions on a large fabric) are read once, by psssp-sim check, whose
--json report gives their count and SLs (deadlock.sl_file)."""

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class PathSlHeader:
    engine: Optional[str]  # the routing engine the dump names
    has_path_sl: bool      # False: the engine gives no SLs, every path is on SL 0


def read_header(path):
    """The PathSlHeader of the dump at `path`; OSError if it cannot be read,
    ValueError with the plugin's reason when it wrote no paths (more than its
    limit)."""
    engine, has_path_sl = None, True
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("#"):
                break
            if line.startswith("# routing engine "):
                engine = line.split()[3].rstrip(";")
            elif "has no path_sl" in line:
                has_path_sl = False
            elif line.startswith("# not written: "):  # too many paths for the plugin
                raise ValueError(line[2:].strip())
    return PathSlHeader(engine, has_path_sl)


def sls_checked(deadlock_report):
    """The SLs psssp-sim check read from the SL file (its --json report's
    "deadlock" object), or None when it was given no SL file."""
    summary = (deadlock_report or {}).get("sl_file")
    return None if summary is None else summary["sls"]
