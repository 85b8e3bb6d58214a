# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines' LP bound (psssp-sim bound) end to end on small fabrics,
with the real OpenSM on ibsim: the row and the chart's line, at least every
engine's eBB on the same flows; --no-bound; a bound that fails; bad bound
options."""

import json
import os
import stat
import subprocess
import sys

import pytest

import report_plots
from psssp_tools import ROOT, binary

SCRIPT = os.path.join(ROOT, "scripts", "compare-engines")
NAME = "bound (any routing)"
# A torus with 2 hosts per switch: the bound is below 1 on shift, and minhop,
# dor and psssp route it differently.
TORUS = "torus --dims 3x3 --hosts-per-switch 2"


def compare(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, **(env or {})))


def refused(proc, *words):
    """Exit 2, one stderr line naming every word, nothing on stdout."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert proc.stdout == ""


def bound_line(text):
    found = [l for l in text.splitlines() if l.startswith(NAME + ":")]
    assert len(found) == 1, text
    return found[0]


def test_bound_row_and_line_are_at_least_every_engine(tmp_path):
    out = tmp_path / "out"
    res = compare("--topology", TORUS, "--engines", "minhop,dor,psssp", "--runs", 20,
                  "--pattern", "bisect", "--pattern", "shift", "--out", out)
    assert res.returncode == 0, res.stderr[-3000:]
    data = json.load(open(out / "results.json"))
    bound = data["bound"]["by_pattern"]
    assert set(bound) == {"bisect", "shift"}
    # Every scored run bounded, on the flows the engines were scored on: the
    # 20 bisections and the 17 phases of shift.
    assert (bound["bisect"]["runs"], bound["bisect"]["runs_scored"]) == (20, 20)
    assert (bound["shift"]["runs"], bound["shift"]["runs_scored"]) == (17, 17)
    for pattern, b in bound.items():
        assert 0 < b["bound"] <= 1 + 1e-9 and b["runs_incomplete"] == 0
        for engine in data["engines"]:
            assert engine["by_pattern"][pattern]["ebb"] <= b["bound"] + 1e-9, (pattern, engine)
    assert bound["shift"]["bound"] < 1  # this torus cannot carry every shift at full rate
    # The row below the engines, the bound in each pattern's eBB column.
    md = (out / "results.md").read_text()
    lines = md.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("| engine |"))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    table = lines[start:end]
    header = [c.strip() for c in table[0].strip("|").split("|")]
    row = [c.strip() for c in table[-1].strip("|").split("|")]
    assert row[0] == NAME and row[1] == "LP upper bound"
    assert float(row[header.index("eBB bisect (lead)")]) == pytest.approx(
        bound["bisect"]["bound"], abs=1e-4)
    assert float(row[header.index("eBB shift (lead)")]) == pytest.approx(
        bound["shift"]["bound"], abs=1e-4)
    assert row[header.index("routes valid")] == "-"
    line = bound_line(md)
    assert "bisect: all 20 runs, exact" in line and "shift: all 17 runs, exact" in line
    assert line in res.stdout  # the terminal shows the same table
    # results.csv stays one row per engine; report.html has the row below them.
    assert [l.split(",")[0] for l in (out / "results.csv").read_text().splitlines()[1:]] == \
        ["minhop", "dor", "psssp"]
    page = (out / "report.html").read_text()
    assert '<tfoot><tr class="bound"><td>%s</td>' % NAME in page
    assert "dashed line: %s" % NAME in page
    assert any(c[:2] == ["%s" % binary("psssp-sim"), "bound"] for c in data["commands"])
    assert (out / "ebb.png").read_bytes().startswith(b"\x89PNG")


def test_no_bound_leaves_it_out(tmp_path):
    out = tmp_path / "out"
    res = compare("--topology", TORUS, "--engines", "minhop,psssp", "--runs", 10,
                  "--no-bound", "--no-plot", "--out", out)
    assert res.returncode == 0, res.stderr[-3000:]
    data = json.load(open(out / "results.json"))
    assert data["bound"] is None
    assert not any(c[1] == "bound" for c in data["commands"] if len(c) > 1)
    for text in (res.stdout, (out / "results.md").read_text(),
                 (out / "report.html").read_text()):
        assert NAME not in text


def test_a_bound_that_fails_is_one_line_and_nothing_else_changes(tmp_path):
    # A build whose psssp-sim fails its bound, and runs every other command.
    build = tmp_path / "build"
    (build / "simulator").mkdir(parents=True)
    real = os.path.dirname(os.path.dirname(binary("psssp-sim")))
    for sub in ("topologies", "opensm-plugin"):
        os.symlink(os.path.join(real, sub), build / sub)
    fake = build / "simulator" / "psssp-sim"
    fake.write_text('#!/bin/sh\nif [ "$1" = bound ]; then\n'
                    '  echo "psssp-sim bound: the LP solver failed" >&2; exit 1\nfi\n'
                    'exec %s "$@"\n' % binary("psssp-sim"))
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    out = tmp_path / "out"
    res = compare("--topology", TORUS, "--engines", "minhop,psssp", "--runs", 10, "--no-plot",
                  "--out", out, env={"PSSSP_BUILD": str(build)})
    assert res.returncode == 0, res.stderr[-3000:]
    md = (out / "results.md").read_text()
    assert bound_line(md).endswith("bisect: not computed (the LP solver failed).")
    assert "| %s |" % NAME not in md
    data = json.load(open(out / "results.json"))
    assert data["bound"]["by_pattern"] == {}
    assert [e["outcome"] for e in data["engines"]] == ["configured", "configured"]
    assert all(0 < e["ebb"] <= 1 for e in data["engines"])


@pytest.mark.parametrize("args, words", [
    (["--bound-runs", "0"], ["--bound-runs", "at least 1"]),
    (["--bound-runs", "some"], ["--bound-runs", "'some'"]),
    (["--bound-time-limit", "0"], ["--bound-time-limit", "at least 1"]),
    (["--bound-time-limit", "1.5"], ["--bound-time-limit", "'1.5'"]),
    (["--no-bound", "--bound-runs", "5"], ["--no-bound", "--bound-runs"]),
    (["--no-bound", "--bound-time-limit", "60"], ["--no-bound", "--bound-time-limit"]),
])
def test_bad_bound_options_are_refused(tmp_path, args, words):
    refused(compare("--topology", TORUS, "--out", tmp_path / "out", *args), "compare-engines",
            *words)


def test_ebb_bars_draw_the_bound_across_each_pattern(tmp_path, monkeypatch):
    plt = report_plots._pyplot()
    if plt is None:
        pytest.skip("no matplotlib")
    figures = []
    monkeypatch.setattr(plt, "close", figures.append)
    rows = [("minhop", {"bisect": (0.5, 0.01), "shift": (0.4, None)}),
            ("psssp", {"bisect": (0.6, 0.01), "shift": (0.45, None)})]
    png = report_plots.ebb_bars(rows, ["bisect", "shift"], "ebb", "eBB", "title",
                                str(tmp_path / "ebb.png"), (), {"bisect": 0.9, "shift": 0.7},
                                NAME)
    assert open(png, "rb").read().startswith(b"\x89PNG")
    figure = next(f for f in figures if hasattr(f, "axes"))  # not close("all")
    ax = figure.axes[0]
    lines = [c for c in ax.collections if c.get_linestyle()[0][1]]  # dashed
    heights = sorted(round(y, 6) for c in lines for seg in c.get_segments() for _, y in seg)
    assert heights == [0.7, 0.7, 0.9, 0.9]
    labels = [t.get_text() for t in figure.legends[0].get_texts()]
    assert labels.count(NAME) == 1 and labels[1:] == ["minhop", "psssp"]
