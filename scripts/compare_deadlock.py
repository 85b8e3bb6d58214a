# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines' credit-loop columns: where each engine's SLs come from
for psssp-sim check --deadlock, what the check read of them, the deadlock
column, and the files ibdmchk reads (--keep)."""

import os
import shutil

import ibdmchk
import path_sls
from opensm_engines import NEEDS_QOS, PATH_SL_DUMP
from psssp_tools import layer_dump


def keep_ibdmchk_files(row):
    """With --keep, beside the engine's tables: ibdmchk's path-SL (-c) and
    SL-to-VL (-d) files of an engine that puts routes on SLs, from the SLs
    the credit-loop check takes (ibdmchk.sl_files), as ROUTES/ENGINE-path-
    sl.ibdmchk and ROUTES/ENGINE-sl2vl.ibdmchk; none for an engine on SL 0."""
    routes = os.path.dirname(row.routes)
    path_sl = os.path.join(routes, row.engine + "-path-sl.ibdmchk")
    try:
        files = ibdmchk.sl_files(row.rundir, path_sl)
    except (OSError, ValueError) as e:
        row.evidence = (row.evidence + "; " if row.evidence else "") + \
            "no path-SL file for ibdmchk: %s" % e
        return
    if files.path_sl is None:
        return
    if files.path_sl != path_sl:
        shutil.copyfile(files.path_sl, path_sl)
    if files.sl2vl:
        shutil.copyfile(files.sl2vl, os.path.join(routes, row.engine + "-sl2vl.ibdmchk"))


def deadlock_inputs(row):
    """(psssp-sim check --deadlock arguments, where the SLs come from), or
    (None, why not) when the SLs of an SL-based engine could not be read.
    psssp proves its routes with its layer table; every other engine with the
    SLs its running SM gave each host pair's path (the psssp_pathsl plugin's
    dump, path_sl as in SA PathRecord answers); engines without path_sl put
    every path on SL 0, and then so does the check. SL-to-VL maps come from
    opensm-sl2vl.dump (QoS on), else identity."""
    sl2vl = os.path.join(row.rundir, "opensm-sl2vl.dump")
    vls = ["--sl2vl", sl2vl] if os.path.exists(sl2vl) else []
    dump = os.path.join(row.rundir, PATH_SL_DUMP)
    header, why = None, None
    try:
        header = path_sls.read_header(dump)
    except (OSError, ValueError) as e:
        why = "no path SLs: %s" % (e.strerror if isinstance(e, OSError) else e)
    layers = layer_dump(row.rundir)
    if row.engine == "psssp" and layers:
        return ["--layers", layers] + vls, "layer table"
    if header is not None and header.has_path_sl:
        return ["--sl-file", dump] + vls, "path SLs"  # check_and_score adds their count
    if header is not None:
        row.layers = 1  # no path_sl: every path on SL 0
    if header is not None or row.engine not in NEEDS_QOS or row.outcome != "configured":
        return [], "SL 0"
    return None, why


def take_path_sls(row, loops):
    """The SLs psssp-sim check read from an engine's path-SL dump: its layers
    (and lash's layers needed: lash puts each switch pair in the lowest layer
    it fits and balances only within the layers it needed)."""
    sls = path_sls.sls_checked(loops)
    if sls is None:
        return
    row.layers = len(sls)
    row.sl_source = "path SLs (%d SLs)" % len(sls)
    if row.engine == "lash" and row.outcome == "configured":
        row.layers_needed = len(sls)


def take_layer_table(row, loops):
    """The layers psssp-sim check found in psssp's layer table, on the routes
    from host ports (the table it programs: SL = VL = layer)."""
    table = (loops or {}).get("layer_table")
    if table is None:
        return
    row.layers = len(table["sls"])
    row.sl_source = "layer table (%d SLs)" % len(table["sls"])


def witness(cycle):
    """The deadlock column for a credit loop: its VLs and length, and the
    first channel with the route that waits on the next (all of it is in
    results.json)."""
    if not cycle:
        return "NO (credit loop)"
    first = cycle[0]
    vls = sorted({c["vl"] for c in cycle})
    return "NO (credit loop on VL %s over %d channels, e.g. switch %s port %d, route %d -> %d)" % (
        ",".join(map(str, vls)), len(cycle), first["switch_guid"], first["port"], first["slid"],
        first["dlid"])


def deadlock_column(loops):
    """The deadlock column from psssp-sim check's two verdicts (its --json
    "deadlock"): host-to-host routes, and all routes (to and from switch
    LIDs too). "yes" when both are free of credit loops; "hosts only; all
    routes: NO (...)" when only routes from or to switch LIDs loop; else
    the host-to-host loop. A path-SL dump holds the SLs of the paths from
    host ports only, so routes from switches would be judged on SL 0: for
    such an engine the column gives the host-to-host verdict and says so."""
    hosts = loops.get("hosts", loops)
    if not hosts["deadlock_free"]:
        return witness(hosts.get("cycle", []))
    if "sl_file" in loops:
        return "yes (host pairs; SLs of routes from switches unknown)"
    every = loops.get("all", loops)
    return "yes" if every["deadlock_free"] else "hosts only; all routes: " + witness(
        every["cycle"])
