# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""ibdmchk (Debian package ibutils), the InfiniBand field's offline credit-loop
checker, as a second opinion on psssp-sim check --deadlock: running it on
OpenSM's opensm-subnet.lst and opensm.fdbs and reading its verdict, and the
path-SL (-c) and SL-to-VL (-d) files it needs for an engine that puts routes
on SLs. Used by check-fabric --ibdmchk, compare-engines --keep and
tests/test_ibdmchk_agreement.py."""

import bisect
import glob
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import List, Optional

from ibsim_session import SBIN, MissingPrerequisite
from opensm_engines import PATH_SL_DUMP
import path_sls
from psssp_tools import ToolFailed

PACKAGE = "ibutils"
NONE, LOOPS, UNROUTED = "none", "loops", "unrouted"
WORDS = {NONE: "no credit loops", LOOPS: "credit loops",
         UNROUTED: "routes that do not deliver"}
SL2VL_DUMP = "opensm-sl2vl.dump"  # OpenSM's programmed maps, read by ibdmchk -d as they are


class NoVerdict(ToolFailed):
    """ibdmchk printed no verdict (or did not finish); the message has its output's tail."""


def find():
    """Path of ibdmchk; MissingPrerequisite (exit 2 in the scripts) naming the package."""
    search = os.pathsep.join([os.environ.get("PATH", os.defpath)] + SBIN)
    path = shutil.which("ibdmchk", path=search)
    if path is None:
        raise MissingPrerequisite("ibdmchk not found on PATH or in %s (Debian package %s)"
                                  % (", ".join(SBIN), PACKAGE))
    return path


@dataclass
class Result:
    verdict: str          # NONE, LOOPS or UNROUTED
    output: str           # what ibdmchk printed
    returncode: int
    command: List[str]
    sls: Optional[int] = None  # SLs and VLs ibdmchk says its loop analysis used
    vls: Optional[int] = None


def run(workdir, subnet, fdbs, everything, path_sl=None, sl2vl=None, timeout=600):
    """ibdmchk on OpenSM's subnet.lst and fdbs (unicast only: an empty
    multicast file), host-to-host paths, or every path with `everything`
    (-a); path SLs (-c) and SL-to-VL maps (-d) if given, else SL 0 and
    VL = SL. Runs in `workdir`. Debian's ibdmchk (ibutils 1.5.7) segfaults
    right after printing its verdict (exit 139): the verdict is read from
    the output whatever the exit status. NoVerdict when there is none."""
    mcfdbs = os.path.join(workdir, "empty.mcfdbs")  # no multicast routes
    open(mcfdbs, "w").close()
    cmd = [find(), "-s", subnet, "-f", fdbs, "-m", mcfdbs] + (["-a"] if everything else [])
    cmd += (["-c", path_sl] if path_sl else []) + (["-d", sl2vl] if sl2vl else [])
    cmd = [str(c) for c in cmd]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              cwd=workdir, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise NoVerdict("ibdmchk did not finish within %d s" % timeout)
    out = proc.stdout
    used = re.search(r"Analyzing Fabric for Credit Loops (\d+) SLs, (\d+) VLs", out)
    sls, vls = (int(used.group(1)), int(used.group(2))) if used else (None, None)
    if "-I- no credit loops found" in out:
        return Result(NONE, out, proc.returncode, cmd, sls, vls)
    if "-E- credit loops in routing" in out:
        return Result(LOOPS, out, proc.returncode, cmd, sls, vls)
    # It checks the paths' connectivity first and stops at a failed one, or
    # leaves the graph unbuilt when a path it traces for it fails.
    if ("-E- Some Point to Point Traversals Failed." in out or
            "-E- Fail to build dependency graphs." in out):
        return Result(UNROUTED, out, proc.returncode, cmd, sls, vls)
    tail = [l for l in (out + proc.stderr).splitlines() if l.strip()][-8:]
    status = "signal %d" % -proc.returncode if proc.returncode < 0 else \
        "exit status %d" % proc.returncode
    raise NoVerdict("ibdmchk gave no verdict (%s): %s" % (status, " | ".join(tail) or
                                                           "no output"))


def sim_verdict(scope):
    """The same three-way verdict from one scope ("hosts" or "all") of
    psssp-sim check --json's deadlock object."""
    if scope["unrouted"] + scope["broken"] + scope["loops"]:
        return UNROUTED
    return NONE if scope["deadlock_free"] else LOOPS


# One end of a link in opensm-subnet.lst: "{ CA Ports:01 SystemGUID:.. NodeGUID:..
# PortGUID:.. VenID:.. DevID:.. Rev:.. {desc} LID:0001 PN:01 }".
_END = re.compile(r"\{ *(\S+) +Ports:\S+ +SystemGUID:\S+ +NodeGUID:([0-9A-Fa-f]+) +"
                  r"PortGUID:([0-9A-Fa-f]+) .*? LID:([0-9A-Fa-f]+) +PN:[0-9A-Fa-f]+ *\}")


def lid_nodes(subnet_lst):
    """{base LID: node GUID (lower-case hex, as ibdmchk's -c parser wants it)}
    of every port with a LID in OpenSM's opensm-subnet.lst."""
    lids = {}
    with open(subnet_lst, errors="replace") as f:
        for line in f:
            for end in _END.finditer(line):
                lid = int(end.group(4), 16)
                if lid:
                    lids[lid] = "0x%016x" % int(end.group(2), 16)
    return lids


def write_path_sls(dump, subnet_lst, out):
    """ibdmchk's -c file ("0xSRC_NODE_GUID DLID SL" per line) from the
    psssp_pathsl plugin's dump ("SLID DLID SL", paths from host ports) and
    the LIDs of opensm-subnet.lst; returns the lines written. ValueError
    when the dump cannot be said in that format: ibdmchk keeps one SL per
    source node and DLID, so two ports (or LMC LIDs) of one node that reach
    a DLID on different SLs, or an SLID that is no port's."""
    header = path_sls.read_header(dump)  # ValueError when the plugin wrote no paths
    if not header.has_path_sl:
        raise ValueError("%s: the engine gives no path SLs" % os.path.basename(dump))
    nodes = lid_nodes(subnet_lst)
    bases = sorted(nodes)
    sl_of, order = {}, []
    with open(dump, errors="replace") as f:
        for number, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            try:
                slid, dlid, sl = (int(w) for w in words[:3])
            except ValueError:
                raise ValueError("%s line %d: not 'SLID DLID SL': %r" % (dump, number,
                                                                        line.strip()))
            # The port whose LID range holds the SLID: the highest base LID not above it.
            at = bisect.bisect_right(bases, slid)
            base = bases[at - 1] if at else None
            if base is None:
                raise ValueError("%s line %d: SLID %d is no port's in %s" % (
                    dump, number, slid, os.path.basename(subnet_lst)))
            key = (nodes[base], dlid)
            if key in sl_of and sl_of[key] != sl:
                raise ValueError("node %s reaches DLID %d on SL %d and SL %d (from two of its "
                                 "ports or LIDs); ibdmchk's path-SL file holds one SL per "
                                 "source node and DLID" % (key[0], dlid, sl_of[key], sl))
            if key not in sl_of:
                order.append(key)
            sl_of[key] = sl
    with open(out, "w") as f:
        for key in order:
            f.write("%s %d %d\n" % (key[0], key[1], sl_of[key]))
    return len(order)


@dataclass
class SlFiles:
    path_sl: Optional[str]  # for ibdmchk -c; None: every route on SL 0
    sl2vl: Optional[str]    # for ibdmchk -d; None: VL = SL
    source: str             # where the SLs come from, for reports


def sl_files(rundir, converted):
    """ibdmchk's -c and -d files for one OpenSM run directory, the SLs
    psssp-sim check takes there: psssp's own (vls=N: the plugin's
    psssp-path-sl.ibdmchk and psssp-sl2vl.ibdmchk, which cover the routes
    from switches too); else the psssp_pathsl plugin's dump of an engine
    with path_sl, written as ibdmchk's -c file to `converted`; else SL 0.
    VLs from OpenSM's opensm-sl2vl.dump when QoS wrote it (psssp: its own
    maps if not). ValueError when SLs exist that ibdmchk cannot be given."""
    sl2vl = os.path.join(rundir, SL2VL_DUMP)
    sl2vl = sl2vl if os.path.exists(sl2vl) else None
    own = sorted(glob.glob(os.path.join(rundir, "psssp-path-sl*.ibdmchk")))
    if own:
        maps = sorted(glob.glob(os.path.join(rundir, "psssp-sl2vl*.ibdmchk")))
        return SlFiles(own[0], sl2vl or (maps[0] if maps else None),
                       "psssp's %s" % os.path.basename(own[0]))
    if glob.glob(os.path.join(rundir, "psssp-layers*.dump")):
        raise ValueError("psssp wrote its layer table but no psssp-path-sl.ibdmchk (too many "
                         "lines for the plugin; see its log)")
    dump = os.path.join(rundir, PATH_SL_DUMP)
    try:
        header = path_sls.read_header(dump)
    except OSError:
        return SlFiles(None, sl2vl, "SL 0")  # the path-SL plugin did not run
    if not header.has_path_sl:
        return SlFiles(None, sl2vl, "SL 0")
    write_path_sls(dump, os.path.join(rundir, "opensm-subnet.lst"), converted)
    return SlFiles(converted, sl2vl, "path SLs from %s" % PATH_SL_DUMP)
