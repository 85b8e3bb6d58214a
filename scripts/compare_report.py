# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines' results: one EngineResult per engine, and what is made
of them: results.md/csv/json, the plots and report.html."""

import csv
import dataclasses
import json
import os
from dataclasses import dataclass, field
from typing import Optional

import cable_loads
import report_page
import report_plots
from check_report import printable
from psssp_tools import binary, fabric_options, progress, score_options

TOPOLOGY_VIEW_LIMIT = 1000  # switches; above, no switch graph is drawn
BOUND_NAME = "bound (any routing)"


@dataclass
class EngineResult:
    """One row of the comparison: what OpenSM did with the engine, then what
    psssp-sim found in the tables the switches hold."""
    engine: str
    outcome: str
    evidence: str
    config: str
    rundir: str
    subnet_up_s: Optional[float] = None
    routing_s: Optional[float] = None
    engine_own_s: Optional[float] = None  # psssp's own computation (its log record)
    engine_layers_s: Optional[float] = None  # of that, vls=N: the layer assignment
    layers_needed: Optional[int] = None  # the engine's own count: psssp, dfsssp (log)
    layers: Optional[int] = None  # distinct SLs of the host pairs' paths (path-SL dump)
    sl_source: Optional[str] = None  # where the credit-loop check took the SLs from
    cycle: list = field(default_factory=list)  # the credit loop found, if any
    routes: Optional[str] = None  # dump_fts output, when the switches got tables
    check_ok: Optional[bool] = None
    deadlock_free: Optional[str] = None
    vls: Optional[int] = None
    mean_hops: Optional[float] = None
    max_link_routes: Optional[int] = None
    ebb: Optional[float] = None
    ci95: object = None  # half-width of the 95% confidence interval; "exact": all phases ran
    capacity_ebb: Optional[float] = None  # flow shares weighed by cable data rates
    maxmin_ebb: Optional[float] = None    # max-min fair shares (--maxmin)
    by_pattern: dict = field(default_factory=dict)  # pattern -> its eBB values
    routes_csv: Optional[str] = None  # psssp-sim check --link-csv: routes per cable


def bound_row(run):
    """The bound as a table row: its mean in each pattern's lead-metric column
    and the first pattern's 95% CI; None without a bound."""
    if not run.bound:
        return None
    key = "capacity_ebb" if run.replay.mixed_rates else "ebb"
    first = run.bound.get(run.args.patterns[0]) or next(iter(run.bound.values()))
    row = EngineResult(BOUND_NAME, "LP upper bound", "", "psssp-sim bound: %s (%s)" % (
        first["method"], first["solver"]), "")
    for pattern, b in run.bound.items():
        row.by_pattern[pattern] = {key: b["bound"]}
    if run.args.patterns[0] in run.bound:
        setattr(row, key, first["bound"])
        exact = not first["random"] and first["runs"] == first["runs_scored"]
        row.ci95 = "exact" if exact else (first["ci95"][1] - first["ci95"][0]) / 2
    return row


COLUMNS = [("engine", "engine"), ("outcome", "outcome"),  # the eBB columns: table_columns
           ("check_ok", "routes valid"), ("deadlock_free", "deadlock-free"), ("vls", "VLs"),
           ("layers", "layers"), ("layers_needed", "layers needed"),
           ("sl_source", "SLs checked"),
           ("mean_hops", "mean hops"),
           ("max_link_routes", "max routes/link"), ("routing_s", "routing s"),
           ("engine_own_s", "psssp own s"), ("engine_layers_s", "psssp layers s"),
           ("subnet_up_s", "subnet up s"), ("config", "configuration")]


def runs_text(run, patterns=None):
    """What was scored: "1000 runs of bisect, all 15 phases of shift". A pattern
    without random draws runs each of its phases once (an exact mean); one
    not scored (no routing passed the check) shows the runs asked."""
    parts = []
    for p in patterns or run.args.patterns:
        runs, random = run.runs_of.get(p, (run.args.runs, True))
        parts.append("%d runs of %s" % (runs, p) if random else
                     "all %d phases of %s" % (runs, p))
    return ", ".join(parts)


def fmt(value, key):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        four = key == "ci95" or key.startswith(("ebb", "capacity_ebb", "maxmin_ebb"))
        return "%.4f" % value if four else "%.3f" % value
    return str(value)


def pattern_key(pattern):
    """A CSV key part for a pattern: file:PATH becomes file-<name>."""
    if pattern.startswith("file:"):
        return "file-" + os.path.splitext(os.path.basename(pattern[5:]))[0]
    return pattern


def table_columns(args, mixed_rates):
    """(key, header, value of a row), in one order whatever the fabric: per
    pattern, first pattern first, its eBB, 95% CI (first pattern), capacity
    eBB and max-min eBB (--maxmin), each header naming its pattern. The lead
    metric's header says "(lead)": the capacity eBB where cables run at
    different rates (the plain eBB treats a 1xSDR cable like a 4xEDR one),
    else the plain eBB; the bar chart, the histogram and check-fabric's
    --min-ebb use the same."""
    def attr(key):
        return lambda r: getattr(r, key)

    def of(pattern, key):
        return lambda r: r.by_pattern.get(pattern, {}).get(key)

    lead = "capacity_ebb" if mixed_rates else "ebb"

    def header(metric, name, pattern):
        return "%s %s%s" % (name, pattern, " (lead)" if metric == lead else "")

    columns = [(k, h, attr(k)) for k, h in COLUMNS]
    first = args.patterns[0]
    metrics = [("ebb", "eBB"), ("capacity_ebb", "capacity eBB")] + (
        [("maxmin_ebb", "max-min eBB")] if args.maxmin else [])
    scored = []
    for metric, name in metrics:
        scored.append((metric, header(metric, name, first), attr(metric)))
        if metric == "ebb":
            scored.append(("ci95", "95% CI ± " + first, attr("ci95")))
    for pattern in args.patterns[1:]:
        key = pattern_key(pattern)
        scored += [("%s_%s" % (metric, key), header(metric, name, pattern), of(pattern, metric))
                   for metric, name in metrics]
    at = next(i for i, c in enumerate(columns) if c[0] == "check_ok")
    columns[at:at] = scored
    return columns


def gather_loads(run):
    """Per scored engine, the first pattern's flows per cable and the routes
    per cable: {engine: {"flows": [(Cable, mean, max)], "routes": [(Cable, n)]}}."""
    flows_csv = run.flows_csv.get(run.args.patterns[0])
    flows = cable_loads.read_flows(flows_csv) if flows_csv and os.path.exists(flows_csv) else {}
    loads = {}
    for r in run.rows:
        if r.engine in flows:
            loads[r.engine] = {"flows": flows[r.engine],
                               "routes": cable_loads.read_routes(r.routes_csv)
                               if r.routes_csv else []}
    return loads


def merged_hot_spots(spots):
    """{"minhop = updn": cables}: engines whose hot-spot tables are identical
    share one; engines without any are left out."""
    merged = {}
    for engine, cables in spots.items():
        if not cables:
            continue
        twin = next((names for names, c in merged.items() if c == cables), None)
        if twin is None:
            merged[engine] = cables
        else:
            merged[twin + " = " + engine] = merged.pop(twin)
    return merged


def hot_spot_lines(run):
    """results.md's hot-spot section."""
    if not run.spots:
        return []
    lines = ["", "Hot spots: the %d most loaded directed switch-to-switch cables per engine "
             "(host cables carry the same flows under every engine; flows per run of "
             "%s, mean and worst run; routes: the cable's edge forwarding index):"
             % (run.args.hot_spots, run.args.patterns[0])]
    for engine, cables in merged_hot_spots(run.spots).items():
        lines += ["", "%s:" % engine, "",
                  "| # | cable | kind | Gb/s | mean flows/run | max flows | routes |",
                  "|---|---|---|---|---|---|---|"]
        lines += ["| %d | %s | %s | %g | %.3f | %d | %s |" % (
            i + 1, c["cable"].replace("|", "\\|"), c["kind"], c["gbps"], c["mean_flows"],
            c["max_flows"], "-" if c["routes"] is None else c["routes"])
            for i, c in enumerate(cables)]
    return lines


def write_outputs(run):
    args, rows, label, hosts, out, replay = (run.args, run.rows, run.label, run.hosts, run.out,
                                             run.replay)
    columns = table_columns(args, replay.mixed_rates)
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([k for k, _, _ in columns] + ["evidence"])
        for r in rows:
            w.writerow([get(r) for _, _, get in columns] + [r.evidence])
    lines = ["# Routing engines on %s (%s hosts)" % (label, hosts if hosts else "?"), "",
             "%s, seed %d%s. eBB: mean over runs of the mean flow share; "
             "capacity eBB weighs each share by the cable's data rate "
             "(see docs/researcher-guide.md)." % (
                 runs_text(run), args.seed,
                 "; scoring options: " + " ".join(score_options(args))
                 if score_options(args) else ""), "",
             "Fabric: %s%s." % ("replayed from the capture, " if replay.captured else "",
                                replay.describe()), "",
             "| " + " | ".join(h for _, h, _ in columns) + " |",
             "|" + "---|" * len(columns)]
    best = best_cells(rows, columns)
    for i, r in enumerate(rows):
        lines.append("| " + " | ".join("**%s**" % fmt(get(r), k) if (i, j) in best
                                       else fmt(get(r), k)
                                       for j, (k, _, get) in enumerate(columns)) + " |")
    bound = bound_row(run)
    if bound:
        lines.append("| " + " | ".join(fmt(get(bound), k) for k, _, get in columns) + " |")
    if best:
        lines += ["", "Bold: the best value of each lead-metric column."]
    if run.bound_note:
        lines += ["", run.bound_note]
    notes = [r for r in rows if r.evidence]
    if notes:
        lines += ["", "Log evidence:", ""]
        lines += ["- %s: `%s`" % (r.engine, r.evidence) for r in notes]
    terminal = printable("\n".join(lines) + "\n")  # names from a name map may hold any byte
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(terminal + printable("\n".join(hot_spot_lines(run)) + "\n"))
    return terminal  # the hot spots go to the files only


def plot(run):
    """OUT/ebb.png: the lead metric per engine and pattern, values on the bars,
    the 95% CI where runs were drawn at random, and each engine's difference
    to the best (report_plots.ebb_bars)."""
    patterns, mixed_rates = run.args.patterns, run.replay.mixed_rates
    scored = [r for r in run.rows if r.by_pattern]
    if not scored:
        return None
    key = "capacity_ebb" if mixed_rates else "ebb"
    values = [(r.engine, {p: (r.by_pattern[p][key],
                              None if mixed_rates else r.by_pattern[p]["ci95"])
                          for p in patterns}) for r in scored]
    ylabel = ("capacity eBB (cables at their data rates)" if mixed_rates
              else "effective bisection bandwidth (eBB)")
    return report_plots.ebb_bars(values, patterns, key, ylabel,
                                 run.label + " (* = engine fell back; hatched)",
                                 os.path.join(run.out, "ebb.png"),
                                 [r.engine for r in scored if r.outcome != "configured"],
                                 {p: b["bound"] for p, b in run.bound.items()}, BOUND_NAME)


def draw_views(run, loads):
    """The PNGs besides ebb.png: [(caption, path)] of those drawn."""
    args, rows, label, out, replay = run.args, run.rows, run.label, run.out, run.replay
    images = []
    engines = [r.engine for r in rows if r.engine in loads]
    first = args.patterns[0]
    if engines:
        flows = {e: {"mean": cable_loads.by_kind([(c, m) for c, m, _ in loads[e]["flows"]]),
                     "max": cable_loads.by_kind([(c, x) for c, _, x in loads[e]["flows"]])}
                 for e in engines}
        png = report_plots.load_cdfs(
            [("mean flows per run", {e: flows[e]["mean"] for e in engines}),
             ("worst run", {e: flows[e]["max"] for e in engines})], engines,
            "%s: flows per directed cable, %s" % (label, runs_text(run, [first])),
            os.path.join(out, "cable-flows.png"),
            ["flows over the cable, mean per run", "flows over the cable in its worst run"])
        if png:
            images.append(("Flows per directed switch-to-switch cable (%s, every engine on "
                           "the same flows): CDF of the mean per run and of the worst run"
                           % first, png))
        png = report_plots.load_cdfs(
            [("routes per cable", {e: cable_loads.by_kind(loads[e]["routes"])
                                   for e in engines})], engines,
            "%s: edge forwarding index (routes per directed cable, every host pair once)"
            % label, os.path.join(out, "cable-routes.png"), "routes over the cable")
        if png:
            images.append(("Routes per directed switch-to-switch cable (static edge "
                           "forwarding index): CDF", png))
        # The lead metric, as in the table and the bar chart.
        kind = "capacity_histogram" if replay.mixed_rates else "histogram"
        histograms = {p: {r.engine: r.by_pattern[p][kind] for r in rows
                          if p in r.by_pattern} for p in args.patterns}
        png = report_plots.ebb_histograms(histograms, args.patterns, engines,
                                          "%s: %s of each run (%s)"
                                          % (label, "capacity eBB" if replay.mixed_rates
                                             else "eBB", runs_text(run)),
                                          os.path.join(out, "ebb-histogram.png"))
        if png:
            images.append(("eBB per run: runs per eBB bin, per pattern and engine", png))
        view = args.view_engine if args.view_engine in engines else engines[0]
        png = topology_view(run, view)
        if png:
            images.append(("Switch graph; cables coloured (blue: idle .. red: busiest) and "
                           "sized by the flows per run of %s under %s (the larger direction)"
                           % (first, view), png))
    return images


def topology_view(run, engine):
    """The switch graph (psssp-sim convert --format dot) coloured by the
    first pattern's flows under `engine`, drawn by Graphviz."""
    args, label, out = run.args, run.label, run.out
    dot = os.path.join(out, "topology.dot")
    rates = ["--rates", args.fabric] if run.replay.captured else []
    run.logged([binary("psssp-sim"), "convert", run.topo, "--format", "dot", "-o", dot,
                "--link-csv", run.flows_csv[args.patterns[0]], "--routing", engine,
                "--title", "%s: %s, flows per run of %s" % (label, engine, args.patterns[0])]
               + rates + fabric_options(args))
    with open(dot, errors="replace") as f:
        head = f.readline().split()
    switches = int(head[head.index("switches,") - 1]) if "switches," in head else 0
    if switches > TOPOLOGY_VIEW_LIMIT:
        progress("no switch graph drawn: %d switches (limit %d); %s has it for Graphviz"
                 % (switches, TOPOLOGY_VIEW_LIMIT, dot))
        return None
    progress("drawing the switch graph (%d switches) with Graphviz" % switches)
    png = os.path.join(out, "topology.png")
    run.note(["dot", "-Tpng", "-Gdpi=80", "-o", png, dot])
    return report_plots.draw_graph(dot, png)


def write_json(run):
    args = run.args
    path = os.path.join(run.out, "results.json")
    engines = []
    for r in run.rows:
        item = dataclasses.asdict(r)
        for k in ("rundir", "routes", "routes_csv"):
            item.pop(k)
        engines.append(item)
    data = {"fabric": run.label, "hosts": run.hosts, "runs": args.runs,
            "runs_by_pattern": {p: n for p, (n, _) in run.runs_of.items()},
            "seed": args.seed,
            "patterns": args.patterns, "engines": engines,
            "bound": {"name": BOUND_NAME, "note": run.bound_note, "by_pattern": run.bound}
            if run.bound_note else None,
            "hot_spots": run.spots,
            "plots": [os.path.basename(p) for _, p in run.images], "commands": run.commands}
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    return path


def write_report(run):
    args, rows, replay = run.args, run.rows, run.replay
    columns = table_columns(args, replay.mixed_rates)
    notes = ["%s hosts; %s, seed %d. eBB: mean over runs of the mean flow share; "
             "capacity eBB weighs each share by the cable's data rate." % (
                 run.hosts if run.hosts else "?", runs_text(run), args.seed),
             "Fabric: %s%s." % ("replayed from the capture, " if replay.captured else "",
                                replay.describe())] + ([run.bound_note] if run.bound_note else [])
    bound = bound_row(run)
    return report_page.write_report(
        os.path.join(run.out, "report.html"), "Routing engines on %s" % run.label, notes,
        [h for _, h, _ in columns],
        [[fmt(get(r), k) for k, _, get in columns] for r in rows], run.images,
        merged_hot_spots(run.spots or {}),
        [(r.engine, r.evidence) for r in rows if r.evidence], run.commands,
        best_cells(rows, columns),
        {i for i, r in enumerate(rows) if r.outcome.startswith("fell back")},
        [fmt(get(bound), k) for k, _, get in columns] if bound else None)


def best_cells(rows, columns):
    """(row, column) of the highest value in every lead-metric column (ties:
    every row that has it)."""
    cells = set()
    for j, (_, head, get) in enumerate(columns):
        if not head.endswith("(lead)"):
            continue
        values = [(i, get(r)) for i, r in enumerate(rows) if isinstance(get(r), float)]
        if values:
            top = max(v for _, v in values)
            cells |= {(i, j) for i, v in values if v >= top - 1e-12}
    return cells
