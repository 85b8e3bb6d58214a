#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The eBB table over the generator's families: every OpenSM engine and
psssp on each fabric, same random bisections per fabric, via compare-engines.
Writes a markdown table (and one results.csv per fabric) to --out.

  bench/bench_quality.py --runs 1000 --seed 1
  bench/bench_quality.py --only torus-8x8,hypercube-6
  bench/bench_quality.py --sweep trees2 --runs 2000    # one family over sizes

Each row ends with psssp's margin over the best other engine that configured
its own tables (psssp minus best, in eBB). With --more-seeds N, where that
margin is negative, psssp's and that engine's tables (kept by compare-engines)
are scored again on N more seeds of --runs bisections each, and the mean and
range of the margin over all seeds are added: two routings that differ only
in which destinations share a link differ by a few 0.01% on one seed.
"""

import argparse
import csv
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "scripts", "compare-engines")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from psssp_tools import UsageError, binary  # noqa: E402 (the scripts' directory, just added)

# The reference fabrics (bisect eBB measured with OpenSM's engines).
FABRICS = [
    ("8-ary-3-tree", "kary-ntree --k 8 --n 3"),
    ("16-ary-3-tree", "kary-ntree --k 16 --n 3"),
    ("2-level-6x18", "fattree2 --leaves 6 --hosts-per-leaf 18 --spines 2 --cables 4"),
    ("8-ary-3-tree-5pct-failed", "kary-ntree --k 8 --n 3 --fail 0.05 --seed 1"),
    ("torus-8x8", "torus --dims 8x8 --hosts-per-switch 4"),
    ("torus-4x4x4", "torus --dims 4x4x4 --hosts-per-switch 2"),
    ("hypercube-6", "hypercube --dim 6 --hosts-per-switch 4"),
    ("dragonfly-8-4-4", "dragonfly --a 8 --p 4 --h 4"),
    ("hyperx-8x8", "hyperx --dims 8x8 --hosts-per-switch 4"),
    ("random-128-8", "random-regular --switches 128 --degree 8 --hosts-per-switch 8 --seed 1"),
]

# Sweeps: one family over sizes and parameters (hosts 64 to 4096).
SWEEPS = {
    "trees2": [  # two-level fat trees: 1-4 parallel cables, 1:1 to 3:1 oversubscription
        ("8-ary-2-tree", "kary-ntree --k 8 --n 2"),
        ("16-ary-2-tree", "kary-ntree --k 16 --n 2"),
        ("32-ary-2-tree", "kary-ntree --k 32 --n 2"),
        ("2l-8x8-s8-c1", "fattree2 --leaves 8 --hosts-per-leaf 8 --spines 8 --cables 1"),
        ("2l-16x16-s8-c2", "fattree2 --leaves 16 --hosts-per-leaf 16 --spines 8 --cables 2"),
        ("2l-16x16-s4-c2", "fattree2 --leaves 16 --hosts-per-leaf 16 --spines 4 --cables 2"),
        ("2l-12x24-s4-c2", "fattree2 --leaves 12 --hosts-per-leaf 24 --spines 4 --cables 2"),
        ("2l-24x12-s3-c4", "fattree2 --leaves 24 --hosts-per-leaf 12 --spines 3 --cables 4"),
        ("2l-6x18-s2-c4", "fattree2 --leaves 6 --hosts-per-leaf 18 --spines 2 --cables 4"),
        ("2l-32x18-s3-c3", "fattree2 --leaves 32 --hosts-per-leaf 18 --spines 3 --cables 3"),
        ("2l-32x24-s4-c2", "fattree2 --leaves 32 --hosts-per-leaf 24 --spines 4 --cables 2"),
        # Switches of at most 127 ports: in ibsim, LFT entries to ports >= 128
        # read back empty (dump_fts), for every engine.
        ("2l-24x16-s4-c4", "fattree2 --leaves 24 --hosts-per-leaf 16 --spines 4 --cables 4"),
        ("2l-120x32-s16-c1", "fattree2 --leaves 120 --hosts-per-leaf 32 --spines 16 --cables 1"),
    ],
    "hyperx": [
        ("hx-4x4-h4", "hyperx --dims 4x4 --hosts-per-switch 4"),
        ("hx-8x8-h4", "hyperx --dims 8x8 --hosts-per-switch 4"),
        ("hx-8x8-c2-h8", "hyperx --dims 8x8 --cables 2 --hosts-per-switch 8"),
        ("hx-4x4x4-h4", "hyperx --dims 4x4x4 --hosts-per-switch 4"),
        ("hx-4x4x4-c2-h8", "hyperx --dims 4x4x4 --cables 2 --hosts-per-switch 8"),
        ("hx-6x6x6-h4", "hyperx --dims 6x6x6 --hosts-per-switch 4"),
    ],
    "mesh": [
        ("mesh-8x8-h1", "mesh --dims 8x8 --hosts-per-switch 1"),
        ("mesh-8x8-h4", "mesh --dims 8x8 --hosts-per-switch 4"),
        ("mesh-4x4x4-h2", "mesh --dims 4x4x4 --hosts-per-switch 2"),
        ("mesh-16x16-h4", "mesh --dims 16x16 --hosts-per-switch 4"),
    ],
    # The other families of psssp-topo, small to mid sizes (64-512 hosts).
    "torus": [
        ("torus-4x4-h4", "torus --dims 4x4 --hosts-per-switch 4"),
        ("torus-8x8-h4", "torus --dims 8x8 --hosts-per-switch 4"),
        ("torus-4x4x4-h4", "torus --dims 4x4x4 --hosts-per-switch 4"),
    ],
    "hypercube": [
        ("hypercube-4-h4", "hypercube --dim 4 --hosts-per-switch 4"),
        ("hypercube-6-h4", "hypercube --dim 6 --hosts-per-switch 4"),
    ],
    "dragonfly": [
        ("dragonfly-a4p2h2", "dragonfly --a 4 --p 2 --h 2"),
        ("dragonfly-a6p3h3", "dragonfly --a 6 --p 3 --h 3"),
    ],
    "ktree3": [
        ("4-ary-3-tree", "kary-ntree --k 4 --n 3"),
        ("8-ary-3-tree", "kary-ntree --k 8 --n 3"),
    ],
    "random": [
        ("random-16-d4-h4", "random-regular --switches 16 --degree 4 --hosts-per-switch 4"),
        ("random-64-d8-h8", "random-regular --switches 64 --degree 8 --hosts-per-switch 8"),
    ],
    "kautz": [
        ("kautz-3-3-h4", "kautz --degree 3 --diameter 3 --hosts-per-switch 4"),
    ],
    "fattree3": [  # three-level trees by pods: 1:1, then 2:1 with parallel cables
        ("3l-4p-4x8-a4-c4", "fattree3 --pods 4 --leaves 4 --hosts-per-leaf 8 --aggs 4 "
         "--cores-per-agg 4"),
        ("3l-4p-4x16-a2-c2-x2", "fattree3 --pods 4 --leaves 4 --hosts-per-leaf 16 --aggs 2 "
         "--cores-per-agg 2 --cables 2"),
        ("3l-8p-8x16-a8-c8", "fattree3 --pods 8 --leaves 8 --hosts-per-leaf 16 --aggs 8 "
         "--cores-per-agg 8"),
        ("3l-4p-4x8-a2-c2-x2", "fattree3 --pods 4 --leaves 4 --hosts-per-leaf 8 --aggs 2 "
         "--cores-per-agg 2 --cables 2"),
        ("3l-8p-4x8-a2-c2-x2", "fattree3 --pods 8 --leaves 4 --hosts-per-leaf 8 --aggs 2 "
         "--cores-per-agg 2 --cables 2"),
        ("3l-4p-3x12-a3-c3-x2", "fattree3 --pods 4 --leaves 3 --hosts-per-leaf 12 --aggs 3 "
         "--cores-per-agg 3 --cables 2"),
        ("3l-6p-4x12-a2-c3-x3", "fattree3 --pods 6 --leaves 4 --hosts-per-leaf 12 --aggs 2 "
         "--cores-per-agg 3 --cables 3"),
        ("3l-8p-8x16-a4-c2-x3", "fattree3 --pods 8 --leaves 8 --hosts-per-leaf 16 --aggs 4 "
         "--cores-per-agg 2 --cables 3"),
        ("3l-8p-8x32-a4-c4-x2", "fattree3 --pods 8 --leaves 8 --hosts-per-leaf 32 --aggs 4 "
         "--cores-per-agg 4 --cables 2"),
    ],
    # Every family at 1024-4096 hosts (the sweeps above stop near 1000 for
    # the families other than two-level trees).
    "large": [
        ("torus-32x32-h2", "torus --dims 32x32 --hosts-per-switch 2"),
        ("16-ary-3-tree", "kary-ntree --k 16 --n 3"),
        ("dragonfly-a8p4h4", "dragonfly --a 8 --p 4 --h 4"),
        ("random-128-d8-h8", "random-regular --switches 128 --degree 8 --hosts-per-switch 8"),
        ("kautz-4-3-h4", "kautz --degree 4 --diameter 3 --hosts-per-switch 4"),
        ("hypercube-8-h4", "hypercube --dim 8 --hosts-per-switch 4"),
        ("torus-16x16-h4", "torus --dims 16x16 --hosts-per-switch 4"),
        ("dragonfly-a10p5h5", "dragonfly --a 10 --p 5 --h 5"),
        ("random-256-d16-h8", "random-regular --switches 256 --degree 16 --hosts-per-switch 8"),
        ("hypercube-10-h2", "hypercube --dim 10 --hosts-per-switch 2"),
        ("torus-8x8x8-h4", "torus --dims 8x8x8 --hosts-per-switch 4"),
        ("hx-8x8x8-h4", "hyperx --dims 8x8x8 --hosts-per-switch 4"),
        ("mesh-8x8x8-h4", "mesh --dims 8x8x8 --hosts-per-switch 4"),
    ],
}

ENGINES = "minhop,updn,ftree,dor,lash,torus-2QoS,nue,sssp,dfsssp,psssp"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", help="comma-separated fabric names")
    p.add_argument("--sweep", choices=sorted(SWEEPS), help="a family sweep instead of FABRICS")
    p.add_argument("--more-seeds", type=int, default=0, metavar="N",
                   help="where psssp is behind, score it and the best other on N more seeds")
    p.add_argument("--engines", default=ENGINES)
    p.add_argument("--psssp-options", default="")
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("--out", default="bench-out/quality")
    args = p.parse_args(argv)
    try:
        args.sim = binary("psssp-sim")
    except UsageError as e:
        sys.exit("bench_quality.py: %s" % e)
    fabrics = SWEEPS[args.sweep] if args.sweep else FABRICS
    chosen = [f for f in fabrics if not args.only or f[0] in args.only.split(",")]
    engines = args.engines.split(",")
    lines = ["# eBB per engine and fabric", "",
             "bisect, %d runs, seed %d, %s; %s, %d cores. `*` = the engine fell back "
             "(see the fabric's results.md for the log line), `-` = failed or timed out." % (
                 args.runs, args.seed, datetime.date.today().isoformat(), platform.machine(),
                 os.cpu_count()), "",
             "| fabric (hosts) | " + " | ".join(engines) + " | psssp - best other |" +
             (" over %d seeds: mean (range) |" % (args.more_seeds + 1) if args.more_seeds else ""),
             "|---|" + "---|" * (len(engines) + 1 + (1 if args.more_seeds else 0))]
    for name, spec in chosen:
        out = os.path.join(args.out, name)
        print("== %s: %s" % (name, spec), file=sys.stderr, flush=True)
        subprocess.run([sys.executable, COMPARE, "--topology", spec, "--engines", args.engines,
                        "--runs", str(args.runs), "--seed", str(args.seed), "--out", out,
                        "--timeout", str(args.timeout), "--psssp-options", args.psssp_options,
                        "--no-plot"] + (["--keep"] if args.more_seeds else []),
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "results.csv")) as f:
            rows = {r["engine"]: r for r in csv.DictReader(f)}
        hosts = _hosts(out)
        cells = []
        for e in engines:
            r = rows.get(e)
            if not r or not r["ebb"]:
                cells.append("-")
            else:
                cells.append("%.4f%s" % (float(r["ebb"]), "" if r["outcome"] == "configured" else "*"))
        row = "| %s (%s) | %s | %s |" % (name, hosts, " | ".join(cells), _margin(rows))
        if args.more_seeds:
            row += " %s |" % _seeds_margin(out, rows, args)
        lines.append(row)
    text = "\n".join(lines) + "\n"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "quality.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


def _margin(rows):
    """psssp's eBB minus the best other engine's that configured its own tables."""
    ps = rows.get("psssp")
    best, engine = _best_other(rows)
    if not ps or not ps.get("ebb") or best is None:
        return "-"
    return "%+.4f (%s)" % (float(ps["ebb"]) - best, engine)


def _best_other(rows):
    others = [(float(r["ebb"]), e) for e, r in rows.items()
              if e != "psssp" and r.get("ebb") and r["outcome"] == "configured"]
    return max(others) if others else (None, None)


def _seeds_margin(out, rows, args):
    """Mean and range of psssp's margin over the best other on args.seed and
    the next --more-seeds seeds, from the tables compare-engines kept."""
    ps = rows.get("psssp")
    best, engine = _best_other(rows)
    if not ps or not ps.get("ebb") or best is None:
        return "-"
    margins = [float(ps["ebb"]) - best]
    if margins[0] >= 0:
        return "not behind"
    work = os.path.join(out, "work")
    mine, theirs = (os.path.join(work, "routes", e + ".fts") for e in ("psssp", engine))
    for seed in range(args.seed + 1, args.seed + 1 + args.more_seeds):
        text = subprocess.run([args.sim, "score", os.path.join(work, "fabric.topo"), "--routes", mine,
                               "--routes", theirs, "--runs", str(args.runs), "--seed", str(seed)],
                              check=True, capture_output=True, text=True).stdout
        ebb = {}
        for path in (mine, theirs):
            m = re.search(r"^%s\s+([0-9.]+)" % re.escape(os.path.basename(path)), text, re.M)
            ebb[path] = float(m.group(1))
        margins.append(ebb[mine] - ebb[theirs])
    return "%+.4f (%+.4f .. %+.4f) vs %s" % (statistics.mean(margins), min(margins),
                                             max(margins), engine)


def _hosts(out):
    first = open(os.path.join(out, "results.md")).readline()
    return first.rsplit("(", 1)[-1].split()[0] if "(" in first else "?"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
