#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Structured traffic under the placements jobs get: psssp against the best
OpenSM engine on every family x size x pattern x mapping, as markdown tables
(one per family) in --out/patterns.md and every cell in --out/cells.csv.

  bench/bench_patterns.py --quick                 # one fabric of each new family
  bench/bench_patterns.py --families rail-optimized,dragonfly-plus --runs 1000
  bench/bench_patterns.py                         # everything: 64-4096 hosts, hours

Per fabric, compare-engines routes with every engine in the real OpenSM on
ibsim and scores all patterns under the first mapping (linear); the tables it
keeps (--keep) are then scored under the other mappings with the same
psssp-sim score command compare-engines runs, so every engine is judged on
the same flows in every cell. A cell is psssp's eBB minus the best other
engine's that configured its own tables (not a fallback), with the 95% CI
of that difference: random patterns and the random mapping draw --runs runs
and the half-widths of both means add in quadrature (unpaired, so wider than
the paired truth); deterministic patterns run each phase once and are exact.
A cell is marked behind when the difference is below -max(CI, 0.001).
"""

import argparse
import csv
import datetime
import json
import math
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "scripts", "compare-engines")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from psssp_tools import ToolFailed, UsageError, binary, score_kept  # noqa: E402 (the scripts' directory, just added)

PATTERNS = ["bisect", "permutation", "shift", "ring", "recursive-doubling", "orcs:recdbl",
            "orcs:bruck", "halo2d", "halo3d"]
MAPPINGS = ["linear", "hostname", "random"]
ENGINES = "minhop,updn,ftree,dor,lash,torus-2QoS,nue,sssp,dfsssp,psssp"

# Every psssp-topo family at 64-4096 hosts. Switches stay below 128 ports:
# in ibsim, LFT entries to ports >= 128 read back empty (bench_quality.py).
FAMILIES = {
    "rail-optimized": [
        ("rail-1x8x8", "rail-optimized --units 1 --servers 8 --hcas 8"),
        ("rail-2x32x8", "rail-optimized --units 2 --servers 32 --hcas 8"),
        ("rail-8x16x8", "rail-optimized --units 8 --servers 16 --hcas 8"),
    ],
    "dragonfly-plus": [
        ("dfp-g4-l4s4", "dragonfly-plus --groups 4 --leaves 4 --spines 4 --hosts-per-leaf 4"),
        ("dfp-g15-l4s4", "dragonfly-plus --groups 15 --leaves 4 --spines 4 --hosts-per-leaf 4"),
        ("dfp-g17-l8s4-taper2", "dragonfly-plus --leaves 8 --spines 4 --hosts-per-leaf 4 "
         "--global-links 4"),
        ("dfp-g64-l8s8", "dragonfly-plus --groups 64 --leaves 8 --spines 8 --hosts-per-leaf 8"),
    ],
    "tapered-tree": [
        ("taper-k4n3-8u2", "tapered-tree --k 4 --n 3 --hosts-per-leaf 8 --uplinks 2"),
        ("taper-k8n3-12u4", "tapered-tree --k 8 --n 3 --hosts-per-leaf 12 --uplinks 4"),
        ("taper-k16n3-16u8", "tapered-tree --k 16 --n 3 --hosts-per-leaf 16 --uplinks 8"),
    ],
    "grown-tree": [
        ("grown-8l-4s", "grown-tree --leaves 8 --spines 4 --min-hosts 4 --max-hosts 14"),
        ("grown-16l-8s", "grown-tree --leaves 16 --spines 8"),
        ("grown-64l-16s", "grown-tree --leaves 64 --spines 16 --short-leaves 4 --spine-hosts 8"),
        ("grown-120l-16s", "grown-tree --leaves 120 --spines 16 --min-hosts 12 --max-hosts 22 "
         "--short-leaves 6 --spine-hosts 8"),
    ],
    "kary-ntree": [
        ("4-ary-3-tree", "kary-ntree --k 4 --n 3"),
        ("8-ary-3-tree", "kary-ntree --k 8 --n 3"),
        ("16-ary-3-tree", "kary-ntree --k 16 --n 3"),
    ],
    "fattree2": [
        ("2l-8x8-s8", "fattree2 --leaves 8 --hosts-per-leaf 8 --spines 8"),
        ("2l-32x24-s4-c2", "fattree2 --leaves 32 --hosts-per-leaf 24 --spines 4 --cables 2"),
        ("2l-120x32-s16", "fattree2 --leaves 120 --hosts-per-leaf 32 --spines 16"),
    ],
    "fattree3": [
        ("3l-4p-4x8-a4-c4", "fattree3 --pods 4 --leaves 4 --hosts-per-leaf 8 --aggs 4 "
         "--cores-per-agg 4"),
        ("3l-8p-8x32-a4-c4-x2", "fattree3 --pods 8 --leaves 8 --hosts-per-leaf 32 --aggs 4 "
         "--cores-per-agg 4 --cables 2"),
    ],
    "director": [
        ("director-is5100-x2", "director --model is5100 --chassis 2 --bundle 6"),
        ("director-cs7500", "director --model cs7500 --chassis 1"),
    ],
    "torus": [
        ("torus-4x4-h4", "torus --dims 4x4 --hosts-per-switch 4"),
        ("torus-8x8x8-h2", "torus --dims 8x8x8 --hosts-per-switch 2"),
        ("torus-32x32-h4", "torus --dims 32x32 --hosts-per-switch 4"),
    ],
    "mesh": [
        ("mesh-8x8-h1", "mesh --dims 8x8 --hosts-per-switch 1"),
        ("mesh-8x8x8-h4", "mesh --dims 8x8x8 --hosts-per-switch 4"),
    ],
    "hypercube": [
        ("hypercube-4-h4", "hypercube --dim 4 --hosts-per-switch 4"),
        ("hypercube-10-h4", "hypercube --dim 10 --hosts-per-switch 4"),
    ],
    "dragonfly": [
        ("dragonfly-a4p2h2", "dragonfly --a 4 --p 2 --h 2"),
        ("dragonfly-a8p4h4", "dragonfly --a 8 --p 4 --h 4"),
    ],
    "hyperx": [
        ("hx-4x4-h4", "hyperx --dims 4x4 --hosts-per-switch 4"),
        ("hx-8x8x8-h4", "hyperx --dims 8x8x8 --hosts-per-switch 4"),
    ],
    "kautz": [
        ("kautz-2-2-h8", "kautz --degree 2 --diameter 2 --hosts-per-switch 8"),
        ("kautz-4-3-h4", "kautz --degree 4 --diameter 3 --hosts-per-switch 4"),
    ],
    "random-regular": [
        ("random-16-d4-h4", "random-regular --switches 16 --degree 4 --hosts-per-switch 4"),
        ("random-256-d16-h8", "random-regular --switches 256 --degree 16 --hosts-per-switch 8"),
    ],
}

# --quick: one fabric of each new family, the sizes the structured-traffic
# issue measured where it has them.
QUICK = ["rail-2x32x8", "dfp-g15-l4s4", "taper-k4n3-8u2", "grown-16l-8s"]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="only " + ", ".join(QUICK))
    p.add_argument("--families", help="comma-separated families (default: all)")
    p.add_argument("--only", help="comma-separated fabric names")
    p.add_argument("--patterns", default=",".join(PATTERNS), help="default: %(default)s")
    p.add_argument("--mappings", default=",".join(MAPPINGS), help="default: %(default)s")
    p.add_argument("--runs", type=int, default=300, help="runs of random cells (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engines", default=ENGINES)
    p.add_argument("--psssp-options", default="")
    p.add_argument("--timeout", type=int, default=600, help="seconds per OpenSM run")
    p.add_argument("--out", default="bench-out/patterns")
    args = p.parse_args(argv)
    try:
        args.sim = binary("psssp-sim")
    except UsageError as e:
        sys.exit("bench_patterns.py: %s" % e)
    patterns, mappings = args.patterns.split(","), args.mappings.split(",")
    families = args.families.split(",") if args.families else list(FAMILIES)
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        p.error("--families: unknown %s (known: %s)" % (", ".join(unknown), ", ".join(FAMILIES)))
    names = QUICK if args.quick else args.only.split(",") if args.only else None
    cells = []
    for family in families:
        for name, spec in FAMILIES[family]:
            if names is None or name in names:
                cells += fabric_cells(args, family, name, spec, patterns, mappings)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "cells.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(cells[0]) if cells else ["family"])
        w.writeheader()
        w.writerows(cells)
    text = report(args, cells, mappings)
    with open(os.path.join(args.out, "patterns.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


def fabric_cells(args, family, name, spec, patterns, mappings):
    """compare-engines on one fabric, then every (pattern, mapping) cell."""
    out = os.path.join(args.out, name)
    print("== %s: %s" % (name, spec), file=sys.stderr, flush=True)
    cmd = [sys.executable, COMPARE, "--topology", spec, "--engines", args.engines,
           "--runs", str(args.runs), "--seed", str(args.seed), "--out", out,
           "--timeout", str(args.timeout), "--psssp-options", args.psssp_options,
           "--mapping", mappings[0], "--no-plot", "--no-bound", "--keep"]
    for pattern in patterns:
        cmd += ["--pattern", pattern]
    if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
        print("bench_patterns: compare-engines failed on %s (its messages above); skipped"
              % name, file=sys.stderr, flush=True)
        return []
    with open(os.path.join(out, "results.json")) as f:
        result = json.load(f)
    engines = {e["engine"]: e for e in result["engines"]}
    scored = [e for e in engines.values() if e["by_pattern"]]
    work = os.path.join(out, "work")
    cells = []
    for mapping in mappings:
        for pattern in patterns:
            if mapping == mappings[0]:
                values = {e["engine"]: (e["by_pattern"][pattern]["ebb"],
                                        e["by_pattern"][pattern]["ci95"]) for e in scored}
            else:
                values = score_kept_cells(args, work, [e["engine"] for e in scored], pattern,
                                          mapping)
            cells.append(cell(family, name, result["hosts"], pattern, mapping, values, engines))
    return cells


def score_kept_cells(args, work, engines, pattern, mapping):
    """{engine: (eBB, CI half-width)} of the kept tables, as compare-engines scores them."""
    try:
        result = score_kept(work, engines, ["--random-runs", str(args.runs), "--seed",
                                            str(args.seed), "--pattern", pattern,
                                            "--mapping", mapping])
    except ToolFailed as e:
        print("bench_patterns: %s" % e, file=sys.stderr, flush=True)
        return {}
    values = {}
    for res in result["results"]:
        ci = (res["ci95"][1] - res["ci95"][0]) / 2 if result["random"] else 0.0
        values[res.get("name", res.get("routes"))] = (res["ebb"], ci)
    return values


def cell(family, name, hosts, pattern, mapping, values, engines):
    """psssp minus the best other engine that configured its own tables."""
    row = {"family": family, "fabric": name, "hosts": hosts, "pattern": pattern,
           "mapping": mapping, "psssp": "", "best": "", "best_engine": "", "delta": "",
           "ci95": "", "behind": ""}
    others = [(v[0], e) for e, v in values.items()
              if e != "psssp" and engines[e]["outcome"] == "configured"]
    if "psssp" not in values or not others:
        return row
    best, engine = max(others)
    ebb, ci = values["psssp"]
    delta = ebb - best
    ci = math.hypot(ci, values[engine][1])
    row.update(psssp="%.4f" % ebb, best="%.4f" % best, best_engine=engine,
               delta="%+.4f" % delta, ci95="%.4f" % ci,
               behind="yes" if delta < -max(ci, 0.001) else "no")
    return row


def report(args, cells, mappings):
    lines = ["# psssp minus the best OpenSM engine, by pattern and mapping", "",
             "%d runs of random cells, seed %d, %s; %s, %d cores. A cell: psssp's eBB minus "
             "the best other engine's (that engine), with the 95%% CI of the difference; "
             "exact where every phase ran. **bold**: behind by more than max(CI, 0.001)." % (
                 args.runs, args.seed, datetime.date.today().isoformat(), platform.machine(),
                 os.cpu_count())]
    for family in dict.fromkeys(c["family"] for c in cells):
        rows = [c for c in cells if c["family"] == family]
        behind = sum(c["behind"] == "yes" for c in rows)
        lines += ["", "## %s (%d of %d cells behind)" % (family, behind, len(rows)), "",
                  "| fabric (hosts) | pattern | " + " | ".join(mappings) + " |",
                  "|---|---|" + "---|" * len(mappings)]
        for key in dict.fromkeys((c["fabric"], c["hosts"], c["pattern"]) for c in rows):
            by_mapping = {c["mapping"]: c for c in rows
                          if (c["fabric"], c["hosts"], c["pattern"]) == key}
            lines.append("| %s (%s) | %s | %s |" % (key[0], key[1], key[2], " | ".join(
                text(by_mapping.get(m)) for m in mappings)))
    return "\n".join(lines) + "\n"


def text(c):
    if not c or not c["delta"]:
        return "-"
    ci = "exact" if float(c["ci95"]) == 0 else "±%s" % c["ci95"]
    value = "%s %s %s" % (c["delta"], ci, c["best_engine"])
    return "**%s**" % value if c["behind"] == "yes" else value


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
