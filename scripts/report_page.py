# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines' report.html: one self-contained page (images embedded as
base64 data URIs, no script, no link out) with the results table, every
plot, the hot spots, the log evidence and the exact commands run."""

import base64
import html
import os
import shlex

from check_report import printable


def _escape(value):
    """HTML text of a value, control characters written out (check_report.printable):
    node names from a site's name map may hold any byte."""
    return html.escape(printable(str(value)))


def _image(path):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode("ascii")
    return "data:image/png;base64," + data


def _table(headers, rows, cls="", best=(), fell_back=(), footer=None):
    """best: (row, column) cells to mark as the best; fell_back: rows of
    engines OpenSM replaced; footer: a row after the engines' (the bound)."""
    out = ['<table%s>' % (' class="%s"' % cls if cls else ""), "<thead><tr>"]
    out += ["<th>%s</th>" % _escape(h) for h in headers]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cells = "".join('<td class="best" title="best">%s</td>' % _escape(str(v))
                        if (i, j) in best else "<td>%s</td>" % _escape(str(v))
                        for j, v in enumerate(row))
        out.append(('<tr class="fallback">' if i in fell_back else "<tr>") + cells + "</tr>")
    out.append("</tbody>")
    if footer:
        out.append('<tfoot><tr class="bound">%s</tr></tfoot>'
                   % "".join("<td>%s</td>" % _escape(str(v)) for v in footer))
    out.append("</table>")
    return "\n".join(out)


STYLE = """
body { font-family: sans-serif; margin: 1.5em; max-width: 1400px; color: #222; }
table { border-collapse: collapse; font-size: 12px; margin: 0.5em 0 1.5em 0; }
th, td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; }
th { background: #eee; }
table.results tbody tr td:first-child { font-weight: bold; }
table.results { display: block; max-width: 100%; overflow-x: auto; }  /* scrolls, not the page */
figure { margin: 0 0 1.5em 0; }
figcaption { font-size: 12px; color: #444; }
img { max-width: 100%; border: 1px solid #ddd; }
td.best { font-weight: bold; background: #d9f2d9; }
td.best::after { content: " \\2605"; }
tr.fallback td { background: #fbe3e3; }
tr.bound td { font-style: italic; background: #f4f4f4; border-top: 2px solid #888; }
pre { background: #f6f6f6; padding: 0.6em; font-size: 11px; overflow-x: auto;
      white-space: pre-wrap; }
"""


def write_report(path, title, notes, headers, rows, images, hot_spots, evidence, commands,
                 best=(), fell_back=(), bound=None):
    """notes: paragraphs (text); headers/rows: the results table, one row per
    engine; images: [(caption, PNG path)]; hot_spots: {engine: [dict]};
    evidence: [(engine, text)]; commands: [argv list]; best: (row, column)
    cells of the best values, fell_back: rows of engines that fell back;
    bound: the bound's row, below the engines' (its cells as text)."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>%s</title>" % _escape(title), "<style>%s</style>" % STYLE,
             "</head><body>", "<h1>%s</h1>" % _escape(title)]
    parts += ["<p>%s</p>" % _escape(n) for n in notes]
    parts += ["<h2>Results</h2>", _table(headers, rows, "results", best, fell_back, bound)]
    if best or fell_back:
        parts.append('<p class="legend">Green with a star: the best value of each lead-metric '
                     'column; red rows: engines OpenSM replaced by a fallback.</p>')
    if images:
        parts.append("<h2>Plots</h2>")
    for caption, png in images:
        parts.append('<figure><img src="%s" alt="%s"><figcaption>%s (%s)</figcaption></figure>'
                     % (_image(png), _escape(caption), _escape(caption),
                        _escape(os.path.basename(png))))
    if hot_spots:
        parts.append("<h2>Hot spots</h2>")
        parts.append("<p>The most loaded directed switch-to-switch cables of each engine "
                     "(host cables carry the same flows under every engine): flows per run "
                     "(mean, and the worst run) of the first pattern, and the routes over the "
                     "cable (edge forwarding index, every host pair once).</p>")
        for engine, spots in hot_spots.items():
            parts.append("<h3>%s</h3>" % _escape(engine))
            parts.append(_table(
                ["#", "cable", "kind", "Gb/s", "mean flows/run", "max flows", "routes"],
                [(i + 1, s["cable"], s["kind"], "%g" % s["gbps"], "%.3f" % s["mean_flows"],
                  s["max_flows"], "-" if s["routes"] is None else s["routes"])
                 for i, s in enumerate(spots)], "hot"))
    parts.append("<h2>Log evidence</h2>")
    if evidence:
        parts.append("<ul>" + "".join("<li><b>%s</b>: <code>%s</code></li>" % (
            _escape(e), _escape(t)) for e, t in evidence) + "</ul>")
    else:
        parts.append("<p>None: every engine configured the fabric as asked.</p>")
    parts.append("<h2>Commands run</h2>")
    parts.append("<pre>%s</pre>" % _escape("\n".join(shlex.join(str(a) for a in c)
                                                         for c in commands)))
    parts.append("</body></html>")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")
    os.replace(tmp, path)
    return path
