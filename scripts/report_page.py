# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines' report.html: one self-contained page (images embedded as
base64 data URIs, no script, no link out) with the results table, every
plot, the hot spots, the log evidence and the exact commands run."""

import base64
import html
import os
import shlex


def _image(path):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode("ascii")
    return "data:image/png;base64," + data


def _table(headers, rows, cls=""):
    out = ['<table%s>' % (' class="%s"' % cls if cls else ""), "<thead><tr>"]
    out += ["<th>%s</th>" % html.escape(h) for h in headers]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join("<td>%s</td>" % html.escape(str(v)) for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


STYLE = """
body { font-family: sans-serif; margin: 1.5em; max-width: 1400px; color: #222; }
table { border-collapse: collapse; font-size: 12px; margin: 0.5em 0 1.5em 0; }
th, td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; }
th { background: #eee; }
table.results tbody tr td:first-child { font-weight: bold; }
figure { margin: 0 0 1.5em 0; }
figcaption { font-size: 12px; color: #444; }
img { max-width: 100%; border: 1px solid #ddd; }
pre { background: #f6f6f6; padding: 0.6em; font-size: 11px; overflow-x: auto;
      white-space: pre-wrap; }
"""


def write_report(path, title, notes, headers, rows, images, hot_spots, evidence, commands):
    """notes: paragraphs (text); headers/rows: the results table, one row per
    engine; images: [(caption, PNG path)]; hot_spots: {engine: [dict]};
    evidence: [(engine, text)]; commands: [argv list]."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>%s</title>" % html.escape(title), "<style>%s</style>" % STYLE,
             "</head><body>", "<h1>%s</h1>" % html.escape(title)]
    parts += ["<p>%s</p>" % html.escape(n) for n in notes]
    parts += ["<h2>Results</h2>", _table(headers, rows, "results")]
    if images:
        parts.append("<h2>Plots</h2>")
    for caption, png in images:
        parts.append('<figure><img src="%s" alt="%s"><figcaption>%s (%s)</figcaption></figure>'
                     % (_image(png), html.escape(caption), html.escape(caption),
                        html.escape(os.path.basename(png))))
    if hot_spots:
        parts.append("<h2>Hot spots</h2>")
        parts.append("<p>The most loaded directed switch-to-switch cables of each engine "
                     "(host cables carry the same flows under every engine): flows per run "
                     "(mean, and the worst run) of the first pattern, and the routes over the "
                     "cable (edge forwarding index, every host pair once).</p>")
        for engine, spots in hot_spots.items():
            parts.append("<h3>%s</h3>" % html.escape(engine))
            parts.append(_table(
                ["#", "cable", "kind", "Gb/s", "mean flows/run", "max flows", "routes"],
                [(i + 1, s["cable"], s["kind"], "%g" % s["gbps"], "%.3f" % s["mean_flows"],
                  s["max_flows"], "-" if s["routes"] is None else s["routes"])
                 for i, s in enumerate(spots)], "hot"))
    parts.append("<h2>Log evidence</h2>")
    if evidence:
        parts.append("<ul>" + "".join("<li><b>%s</b>: <code>%s</code></li>" % (
            html.escape(e), html.escape(t)) for e, t in evidence) + "</ul>")
    else:
        parts.append("<p>None: every engine configured the fabric as asked.</p>")
    parts.append("<h2>Commands run</h2>")
    parts.append("<pre>%s</pre>" % html.escape("\n".join(shlex.join(str(a) for a in c)
                                                         for c in commands)))
    parts.append("</body></html>")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")
    os.replace(tmp, path)
    return path
