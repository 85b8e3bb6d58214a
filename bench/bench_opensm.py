#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Routing speed inside the real OpenSM: time to subnet up and engine compute
time for psssp against OpenSM's own engines, on the same ibsim fabric in the
same run, with ratios. With --vls-rounds N: psssp alone, plain and with
vls=8 in turn, N times each, and what the virtual layers add to psssp's own
time.

  bench/bench_opensm.py                        # 16-ary 3-tree, 4096 hosts
  bench/bench_opensm.py --topology "kary-ntree --k 8 --n 3" --engines minhop,sssp,psssp
  bench/bench_opensm.py --topology "dragonfly --a 12 --p 6 --h 6" --vls-rounds 4
"""

import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "scripts", "compare-engines")


def num(row, key):
    return float(row[key]) if row.get(key) not in (None, "", "None") else None


def compare(topology, engines, runs, out, psssp_options=""):
    """One compare-engines run on a fresh fabric: its results.csv rows by engine."""
    cmd = [sys.executable, COMPARE, "--topology", topology, "--engines", engines,
           "--runs", str(runs), "--out", out, "--no-plot", "--fresh-fabric", "--keep"]
    if psssp_options:
        cmd.append("--psssp-options=" + psssp_options)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "results.csv")) as f:
        return {r["engine"]: r for r in csv.DictReader(f)}


def vls_rounds(args):
    """psssp plain and with vls=8 (plus --psssp-options), in turn. Two
    ratios: vls=8 over plain from runs paired in order (carries the spread
    of two OpenSM runs), and own / (own - layers) within each vls=8 run."""
    options = " ".join(o for o in ("vls=8", args.psssp_options) if o)
    plain, layered, layers, needed = [], [], [], set()
    for _ in range(args.vls_rounds):
        for opts, into in ((options, layered), (args.psssp_options, plain)):
            ps = compare(args.topology, "psssp", args.runs, args.out, opts)["psssp"]
            if num(ps, "engine_own_s") is None:
                sys.exit("bench_opensm.py: psssp did not route (%s)" % ps["outcome"])
            into.append(num(ps, "engine_own_s"))
            if opts == options:
                layers.append(num(ps, "engine_layers_s"))
                needed.add(ps["layers_needed"])
    paired = [v / p for v, p in zip(layered, plain)]
    alone = [v / (v - l) for v, l in zip(layered, layers)]
    print("fabric: %s; %d rounds" % (args.topology, args.vls_rounds))
    print("plain own s:         %s" % " ".join("%.3f" % x for x in plain))
    print("vls=8 own s:         %s" % " ".join("%.3f" % x for x in layered))
    print("of it, layers s:     %s" % " ".join("%.3f" % x for x in layers))
    print("layers needed:       %s" % ",".join(sorted(needed)))
    print("vls=8 / plain, runs paired:       %.2f-%.2f" % (min(paired), max(paired)))
    print("own / (own - layers), same run:   %.2f-%.2f" % (min(alone), max(alone)))
    return 0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--topology", default="kary-ntree --k 16 --n 3")
    p.add_argument("--engines", default="minhop,ftree,sssp,dfsssp,psssp")
    p.add_argument("--runs", type=int, default=200, help="eBB runs (quality side note)")
    p.add_argument("--out", default="bench-out/opensm")
    p.add_argument("--psssp-options", default="",
                   help="event_plugin_options for psssp, e.g. lid_matrices=opensm")
    p.add_argument("--vls-rounds", type=int, default=0,
                   help="psssp only: N rounds of plain and vls=8, and the layers' share")
    args = p.parse_args(argv)
    if args.vls_rounds > 0:
        return vls_rounds(args)
    rows = compare(args.topology, args.engines, args.runs, args.out, args.psssp_options)

    print("fabric: %s%s" % (args.topology, "; psssp options: " + args.psssp_options
                              if args.psssp_options else ""))
    print("%-8s %-22s %12s %12s %8s" % ("engine", "outcome", "subnet up s", "routing s", "eBB"))
    for name, r in rows.items():
        up, rt, ebb = num(r, "subnet_up_s"), num(r, "routing_s"), num(r, "ebb")
        print("%-8s %-22s %12s %12s %8s" % (name, r["outcome"], "%.2f" % up if up else "-",
                                            "%.3f" % rt if rt is not None else "-",
                                            "%.4f" % ebb if ebb else "-"))
    ps = rows.get("psssp")
    if not ps:
        return 0
    if num(ps, "engine_own_s") is not None:
        print("psssp's own computation (its log line): %.3f s; the rest of its routing time "
              "is the min-hop matrices (psssp's BFS, or OpenSM's with lid_matrices=opensm) "
              "and OpenSM's LFT bookkeeping" % num(ps, "engine_own_s"))
    if num(ps, "engine_layers_s") is not None:
        print("of which the virtual layers (vls=N, its log line): %.3f s"
              % num(ps, "engine_layers_s"))
    print("\nratios (psssp / engine), same run:")
    for name, r in rows.items():
        if name == "psssp":
            continue
        parts = []
        for key, label in (("subnet_up_s", "subnet up"), ("routing_s", "routing")):
            a, b = num(ps, key), num(r, key)
            if a is not None and b:
                parts.append("%s %.3f" % (label, a / b))
        print("  vs %-8s %s" % (name, ", ".join(parts) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
