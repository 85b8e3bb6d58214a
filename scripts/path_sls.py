# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The path-SL dump of the psssp_pathsl OpenSM event plugin
(opensm-plugin/path_sl_dump.c): the SL the SA gives every host pair's path,
as "SLID DLID SL" lines (the SL file format of psssp-sim check --sl-file)."""

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class PathSlSummary:
    engine: Optional[str]  # the routing engine the dump names
    paths: int             # "SLID DLID SL" lines
    sls: Tuple[int, ...]   # distinct SLs on them, ascending
    has_path_sl: bool      # False: the engine gives no SLs, every path is on SL 0

    @property
    def layers(self):
        """SLs (layers) the host pairs' paths use: 1 when the engine has no path_sl."""
        return len(self.sls) if self.has_path_sl else 1


def summarize(path):
    """A PathSlSummary of the dump at `path`; OSError if it cannot be read,
    ValueError for a line that is not "SLID DLID SL", or with the plugin's
    reason when it wrote no paths (more than its limit)."""
    engine, paths, has_path_sl, seen = None, 0, True, set()
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#"):
                if line.startswith("# routing engine "):
                    engine = line.split()[3].rstrip(";")
                elif "has no path_sl" in line:
                    has_path_sl = False
                elif line.startswith("# not written: "):  # too many paths for the plugin
                    raise ValueError(line[2:].strip())
                continue
            # Millions of lines: split at the last space only; psssp-sim
            # check reads every field.
            head, _, sl = line.rpartition(" ")
            if not head or " " not in head:
                raise ValueError("%s:%d: expected \"SLID DLID SL\"" % (path, number))
            seen.add(sl)
            paths += 1
    try:
        sls = tuple(sorted(int(sl) for sl in seen))
    except ValueError:
        raise ValueError("%s: an SL that is not a number" % path)
    return PathSlSummary(engine, paths, sls, has_path_sl)
