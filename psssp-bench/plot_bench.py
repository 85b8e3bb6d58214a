#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Measured against predicted eBB per run, from psssp-bench --json, as a PNG.

    plot_bench.py result.json -o result.png
"""

import argparse
import json
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="psssp-bench --json output")
    parser.add_argument("-o", "--output", required=True, help="PNG to write")
    args = parser.parse_args(argv)
    try:
        with open(args.json) as f:
            report = json.load(f)
        runs = report["runs"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit("plot_bench.py: %s: not a psssp-bench report (%s)" % (args.json, e))
    if report.get("predicted_ebb") is None:
        sys.exit("plot_bench.py: %s has no prediction (run psssp-bench with --routes)" % args.json)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    predicted = [r["predicted_ebb"] for r in runs]
    measured = [r["measured_ebb"] for r in runs]
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.scatter(predicted, measured, s=8, alpha=0.5)
    top = max(1.0, max(measured), max(predicted))
    ax.plot([0, top], [0, top], color="grey", linewidth=0.8)
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("predicted eBB per run (psssp-sim score)")
    ax.set_ylabel("measured eBB per run (psssp-bench)")
    r = report.get("correlation")
    ax.set_title("%s, %d runs: measured %.3f, predicted %.3f%s" % (
        report.get("pattern", "?"), len(runs), report["measured_ebb"], report["predicted_ebb"],
        "" if r is None else ", r = %.2f" % r), fontsize=9)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
