# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The plots of compare-engines' report, each one PNG: per-cable load as
overlaid CDFs (host and switch cables apart), the per-run eBB histograms, and
the switch graph drawn by Graphviz. Every function returns the PNG's path,
or None (with the reason on standard error) when it cannot draw."""

import os
import shutil
import subprocess
import sys

_PSSSP_COLOUR = "tab:red"


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        print("no plot: python3-matplotlib is not installed", file=sys.stderr)
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def engine_colours(engines):
    """psssp red everywhere, every other engine its own colour of the cycle."""
    others = ["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:pink",
              "tab:gray", "tab:olive", "tab:cyan"]
    out, i = {}, 0
    for e in engines:
        if e == "psssp":
            out[e] = _PSSSP_COLOUR
        else:
            out[e] = others[i % len(others)]
            i += 1
    return out


def _styles(engines):
    """A line style per engine, so that engines with equal loads stay visible."""
    dashes = ["-", "--", "-.", ":"]
    return {e: dashes[i % len(dashes)] for i, e in enumerate(engines)}


def _cdf(ax, values, **style):
    """A step CDF: the share of cables with at most x."""
    if not values:
        return
    xs = sorted(values)
    n = len(xs)
    ax.step([xs[0]] + xs, [0.0] + [(i + 1) / n for i in range(n)], where="post", **style)


def load_cdfs(panels, engines, title, path, xlabel):
    """Overlaid CDFs, one line per engine. panels: [(panel title,
    {engine: {"host": [values], "switch": [values]}})], one row of two
    panels (host cables, switch cables) each."""
    plt = _pyplot()
    if plt is None or not engines:
        return None
    colours, styles = engine_colours(engines), _styles(engines)
    fig, axes = plt.subplots(len(panels), 2, figsize=(10, 3.2 * len(panels) + 0.6),
                             squeeze=False)
    for row, (label, data) in enumerate(panels):
        for col, kind in enumerate(("host", "switch")):
            ax = axes[row][col]
            for e in engines:
                values = data.get(e, {}).get(kind, [])
                _cdf(ax, values, color=colours[e], linestyle=styles[e],
                     label="%s (%d cables)" % (e, len(values)),
                     linewidth=1.6 if e == "psssp" else 1.1)
            ax.set_title("%s, %s cables" % (label, kind), fontsize=9)
            ax.set_xlabel(xlabel[row] if isinstance(xlabel, (list, tuple)) else xlabel,
                          fontsize=8)
            ax.set_ylabel("share of cables (CDF)", fontsize=8)
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7, loc="lower right")
    return _save(plt, fig, title, path, 10)


def _save(plt, fig, title, path, title_size):
    """Titles, lays out and writes a figure as PNG; returns the path."""
    fig.suptitle(title, fontsize=title_size)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def ebb_histograms(histograms, patterns, engines, title, path):
    """Runs per eBB bin, one panel per pattern, one step line per engine.
    histograms: {pattern: {engine: [runs per bin]}} (bins split [0, 1])."""
    plt = _pyplot()
    if plt is None or not engines:
        return None
    colours, styles = engine_colours(engines), _styles(engines)
    fig, axes = plt.subplots(1, len(patterns), figsize=(max(7, 4.2 * len(patterns)), 3.6),
                             squeeze=False)
    for col, pattern in enumerate(patterns):
        ax = axes[0][col]
        for e in engines:
            counts = histograms.get(pattern, {}).get(e)
            if not counts:
                continue
            bins = len(counts)
            edges = [i / bins for i in range(bins + 1)]
            ax.stairs(counts, edges, color=colours[e], linestyle=styles[e], label=e,
                      linewidth=1.6 if e == "psssp" else 1.1)
        ax.set_title(pattern, fontsize=9)
        ax.set_xlabel("eBB of a run", fontsize=8)
        ax.set_ylabel("runs", fontsize=8)
        ax.set_xlim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    return _save(plt, fig, title, path, 9)


def draw_graph(dot_file, path, timeout=600):
    """Renders a Graphviz file (psssp-sim convert --format dot; its layout
    attribute picks dot, neato or sfdp) as PNG."""
    dot = shutil.which("dot")
    if dot is None:
        print("no topology view: Graphviz (package graphviz) is not installed",
              file=sys.stderr)
        return None
    try:
        res = subprocess.run([dot, "-Tpng", "-Gdpi=80", "-o", path, dot_file],
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        print("no topology view: Graphviz took over %d s" % timeout, file=sys.stderr)
        return None
    if res.returncode != 0 or not os.path.exists(path):
        print("no topology view: dot exited %d: %s" % (res.returncode, res.stderr.strip()[-500:]),
              file=sys.stderr)
        return None
    return path
