# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The plots of compare-engines' report, each one PNG: per-cable load as
overlaid CDFs (host and switch cables apart), the per-run eBB histograms, and
the switch graph drawn by Graphviz. Every function returns the PNG's path,
or None (with the reason on standard error) when it cannot draw."""

import os
import shutil
import subprocess
import sys

# One colour and marker per engine, the same in every plot and every report:
# eleven colours no two alike (psssp red), and a marker each, so that lines
# and bars stay apart in grey print too. Engines not listed take the spares.
ENGINE_STYLES = {
    "minhop": ("#1f77b4", "o"), "updn": ("#ff7f0e", "s"), "dnup": ("#8c564b", "D"),
    "ftree": ("#2ca02c", "^"), "dor": ("#9467bd", "v"), "lash": ("#e377c2", "P"),
    "torus-2QoS": ("#7f7f7f", "X"), "nue": ("#bcbd22", "<"), "sssp": ("#17becf", ">"),
    "dfsssp": ("#000000", "h"), "psssp": ("#d62728", "*"),
}
_SPARE_STYLES = [("#aec7e8", "d"), ("#98df8a", "p"), ("#c5b0d5", "H"), ("#ffbb78", "8")]


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        print("no plot: python3-matplotlib is not installed", file=sys.stderr)
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def engine_styles(engines):
    """{engine: (colour, marker)} from ENGINE_STYLES, spares for other names."""
    out, spare = {}, 0
    for e in engines:
        if e in ENGINE_STYLES:
            out[e] = ENGINE_STYLES[e]
        else:
            out[e] = _SPARE_STYLES[spare % len(_SPARE_STYLES)]
            spare += 1
    return out


def engine_colours(engines):
    return {e: colour for e, (colour, _) in engine_styles(engines).items()}


def _styles(engines):
    """A line style per engine, so that engines with equal loads stay visible."""
    dashes = ["-", "--", "-.", ":"]
    return {e: dashes[i % len(dashes)] for i, e in enumerate(engines)}


def _markers(engines):
    return {e: marker for e, (_, marker) in engine_styles(engines).items()}


def ebb_bars(rows, patterns, key, ylabel, title, path, fell_back=(), bound=None,
             bound_label="bound"):
    """Two panels: the eBB of every engine per pattern, its value on each bar
    (the 95% CI as error bars where given); and each engine's difference to
    the best engine of that pattern in percentage points, where differences
    of a hundredth show. rows: [(engine, {pattern: (value, ci95 or None)})].
    Engines in fell_back are hatched and starred. bound: {pattern: value}, a
    dashed line across the pattern's bars, its value at the right end, in
    the legend as bound_label. Width capped at 12 inches."""
    plt = _pyplot()
    if plt is None or not rows:
        return None
    styles = engine_styles([e for e, _ in rows])
    n = len(rows)
    width = 0.8 / n
    fig, (ax, diff) = plt.subplots(1, 2, figsize=(min(12, 3 + 0.5 * n * len(patterns)) + 3,
                                                  4.6), gridspec_kw={"width_ratios": [3, 2]})
    best = {p: max(v[p][0] for _, v in rows if p in v) for p in patterns}
    for i, (engine, values) in enumerate(rows):
        xs = [j + (i - (n - 1) / 2) * width for j in range(len(patterns))]
        ys = [values[p][0] for p in patterns]
        errors = [values[p][1] or 0.0 for p in patterns]
        colour, marker = styles[engine]
        hatch = "//" if engine in fell_back else None
        name = engine + ("*" if engine in fell_back else "")
        bars = ax.bar(xs, ys, width=width, yerr=errors if any(errors) else None, capsize=2,
                      color=colour, hatch=hatch, edgecolor="white", label=name)
        ax.bar_label(bars, labels=["%.3f" % y for y in ys], rotation=90, fontsize=6,
                     padding=2)
        diff.scatter([100 * (y - best[p]) for p, y in zip(patterns, ys)], range(len(patterns)),
                     color=colour, marker=marker, s=50, label=name, zorder=3)
    labelled = False
    for j, p in enumerate(patterns):
        if (bound or {}).get(p) is None:
            continue
        ax.hlines(bound[p], j - 0.44, j + 0.44, colors="#222", linestyles="--", linewidth=1.2,
                  zorder=4, label="_nolegend_" if labelled else bound_label)
        ax.annotate("%.3f" % bound[p], (j + 0.44, bound[p]), xytext=(0, 2), ha="right",
                    textcoords="offset points", fontsize=6, color="#222")
        labelled = True
    ax.set_xticks(range(len(patterns)))
    ax.set_xticklabels(patterns, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_ylim(0, 1.12)
    ax.grid(axis="y", alpha=0.3)
    diff.set_yticks(range(len(patterns)))
    diff.set_yticklabels(patterns, fontsize=8)
    diff.axvline(0, color="#444", linewidth=0.8)
    diff.set_xlabel("difference to the best engine (percentage points)", fontsize=8)
    diff.grid(axis="x", alpha=0.3)
    diff.invert_yaxis()
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 6), fontsize=7)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout(rect=(0, 0.12 if len(labels) > 6 else 0.08, 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _cdf(ax, values, **style):
    """A step CDF: the share of cables with at most x."""
    if not values:
        return
    xs = sorted(values)
    n = len(xs)
    ax.step([xs[0]] + xs, [0.0] + [(i + 1) / n for i in range(n)], where="post", **style)


def load_cdfs(panels, engines, title, path, xlabel):
    """Overlaid CDFs over the switch-to-switch cables, one line per engine
    (host cables carry the same flows under every engine: no panel). panels:
    [(panel title, {engine: {"switch": [values], ...}})], side by side."""
    plt = _pyplot()
    if plt is None or not engines:
        return None
    colours, styles = engine_colours(engines), _styles(engines)
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.8), squeeze=False)
    for col, (label, data) in enumerate(panels):
        for row, kind in enumerate(("switch",)):
            ax = axes[row][col]
            for e in engines:
                values = data.get(e, {}).get(kind, [])
                _cdf(ax, values, color=colours[e], linestyle=styles[e],
                     label="%s (%d cables)" % (e, len(values)),
                     linewidth=1.6 if e == "psssp" else 1.1)
            ax.set_title("%s, %s cables" % (label, kind), fontsize=9)
            ax.set_xlabel(xlabel[col] if isinstance(xlabel, (list, tuple)) else xlabel,
                          fontsize=8)
            ax.set_ylabel("share of cables (CDF)", fontsize=8)
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7, loc="lower right")
    return _save(plt, fig, title, path, 9)


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
    columns = min(3, len(patterns))
    rows = (len(patterns) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(max(7, 4.2 * columns), 3.4 * rows + 0.4),
                             squeeze=False)
    for ax in axes.flat[len(patterns):]:
        ax.set_visible(False)
    for i, pattern in enumerate(patterns):
        ax = axes[i // columns][i % columns]
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
