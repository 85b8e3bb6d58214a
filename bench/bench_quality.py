#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The eBB table over the generator's families: every OpenSM engine and
psssp on each fabric, same random bisections per fabric, via compare-engines.
Writes a markdown table (and one results.csv per fabric) to --out.

  bench/bench_quality.py --runs 1000 --seed 1
  bench/bench_quality.py --only torus-8x8,hypercube-6
"""

import argparse
import csv
import datetime
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "scripts", "compare-engines")

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

ENGINES = "minhop,updn,ftree,dor,lash,torus-2QoS,nue,sssp,dfsssp,psssp"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", help="comma-separated fabric names")
    p.add_argument("--engines", default=ENGINES)
    p.add_argument("--psssp-options", default="")
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("--out", default="bench-out/quality")
    args = p.parse_args(argv)
    chosen = [f for f in FABRICS if not args.only or f[0] in args.only.split(",")]
    engines = args.engines.split(",")
    lines = ["# eBB per engine and fabric", "",
             "bisect, %d runs, seed %d, %s; %s, %d cores. `*` = the engine fell back "
             "(see the fabric's results.md for the log line), `-` = failed or timed out." % (
                 args.runs, args.seed, datetime.date.today().isoformat(), platform.machine(),
                 os.cpu_count()), "",
             "| fabric (hosts) | " + " | ".join(engines) + " |",
             "|---|" + "---|" * len(engines)]
    for name, spec in chosen:
        out = os.path.join(args.out, name)
        print("== %s: %s" % (name, spec), file=sys.stderr, flush=True)
        subprocess.run([sys.executable, COMPARE, "--topology", spec, "--engines", args.engines,
                        "--runs", str(args.runs), "--seed", str(args.seed), "--out", out,
                        "--timeout", str(args.timeout), "--psssp-options", args.psssp_options,
                        "--no-plot"], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "results.csv")) as f:
            rows = {r["engine"]: r for r in csv.DictReader(f)}
        hosts = _hosts(out)
        cells = []
        for e in engines:
            r = rows.get(e)
            if not r or not r["ebb"]:
                cells.append("-")
            else:
                cells.append("%.3f%s" % (float(r["ebb"]), "" if r["outcome"] == "configured" else "*"))
        lines.append("| %s (%s) | %s |" % (name, hosts, " | ".join(cells)))
    text = "\n".join(lines) + "\n"
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "quality.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


def _hosts(out):
    first = open(os.path.join(out, "results.md")).readline()
    return first.rsplit("(", 1)[-1].split()[0] if "(" in first else "?"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
