#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Digests of psssp's tables and scores on every fabric of the quality
benchmark (bench_quality.py's list): psssp-topo generates the fabric,
psssp-sim route computes the tables, psssp-sim score gives the bisect eBB.
With --vls N also the layer table of the deadlock-free mode, with
--previous also the tables of an incremental re-routing after 2% of the
cables failed (psssp-topo --fail 0.02, then psssp-sim route --previous
with the tables of the whole fabric). Run it with two builds to show a
change leaves routing and scoring alone:

  PSSSP_BUILD=build bench/bench_digests.py --vls 8 --previous > after.txt
  PSSSP_BUILD=/tmp/old/build bench/bench_digests.py --vls 8 --previous > before.txt
  diff before.txt after.txt
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile

from bench_quality import FABRICS
from psssp_tools import UsageError, binary  # scripts/, on the path since bench_quality


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", help="comma-separated fabric names")
    p.add_argument("--route-args", default="", help="extra psssp-sim route arguments")
    p.add_argument("--vls", type=int, help="also route with --vls N and digest the layer table")
    p.add_argument("--previous", action="store_true",
                   help="also re-route incrementally after 2%% of the cables failed")
    args = p.parse_args(argv)
    try:
        topo, sim = binary("psssp-topo"), binary("psssp-sim")
    except UsageError as e:
        sys.exit("bench_digests.py: %s" % e)
    columns = ["fabric", "fabric sha256", "tables sha256", "bisect eBB"]
    if args.vls:
        columns += ["vls=%d tables sha256" % args.vls, "layers sha256"]
    if args.previous:
        columns += ["incremental tables sha256"]
    print("| %s |" % " | ".join(columns))
    print("|%s" % ("---|" * len(columns)))
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec in FABRICS:
            if args.only and name not in args.only.split(","):
                continue
            net, lfts = os.path.join(tmp, name + ".net"), os.path.join(tmp, name + ".lfts")
            family, *rest = spec.split()
            subprocess.run([topo, family, *rest, "-o", net], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run([sim, "route", net, "-o", lfts, *args.route_args.split()], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            score = subprocess.run([sim, "score", net, "--routes", lfts, "--pattern", "bisect",
                                    "--runs", str(args.runs), "--seed", str(args.seed)],
                                   check=True, capture_output=True, text=True).stdout
            # The row of the routing: its file name, then the eBB.
            ebb = re.search(r"^%s\s+([0-9.]+)" % re.escape(os.path.basename(lfts)), score, re.M)
            row = [name, digest(net), digest(lfts), ebb.group(1) if ebb else "?"]
            quiet = dict(check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if args.vls:
                vlfts, layers = lfts + ".vls", lfts + ".layers"
                subprocess.run([sim, "route", net, "-o", vlfts, "--vls", str(args.vls),
                                "--layers-out", layers, *args.route_args.split()], **quiet)
                row += [digest(vlfts), digest(layers)]
            if args.previous:
                failed, again = net + ".failed", lfts + ".again"
                subprocess.run([topo, family, *rest, "--fail", "0.02", "-o", failed], **quiet)
                subprocess.run([sim, "route", failed, "-o", again, "--previous", lfts,
                                *args.route_args.split()], **quiet)
                row += [digest(again)]
            print("| %s |" % " | ".join(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
