# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""--node-name-map: nodes are printed by the names a site's infiniband-diags
node name map gives, in check's findings and in score's errors."""

from psssp_tools import binary, generate, run


def test_findings_name_nodes_by_the_map(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 2, "--n", 2)
    lfts = tmp_path / "r.lfts"
    run([binary("psssp-sim"), "route", net, "-o", lfts])
    # Cut every entry of the first switch's table after its header: black holes there.
    lines = lfts.read_text().splitlines(keepends=True)
    header = next(i for i, l in enumerate(lines) if l.startswith("Unicast lids"))
    guid = lines[header].split(" guid ")[1].split()[0]
    body_end = next(i for i in range(header + 1, len(lines)) if lines[i].startswith("Unicast")
                    or not lines[i].startswith("0x"))
    broken = tmp_path / "broken.lfts"
    broken.write_text("".join(lines[:header + 1] + lines[body_end:]))
    names = tmp_path / "site.map"
    names.write_text("# site names\n%s \"rack1-leaf-A\"\n" % guid)

    plain = run([binary("psssp-sim"), "check", net, "--routes", broken], check=False)
    mapped = run([binary("psssp-sim"), "check", net, "--routes", broken, "--node-name-map",
                  names], check=False)
    assert plain.returncode == mapped.returncode == 1
    assert "rack1-leaf-A" not in plain.stdout
    assert '"rack1-leaf-A" (%s)' % guid in mapped.stdout, mapped.stdout[-2000:]

    score = run([binary("psssp-sim"), "score", net, "--routes", broken, "--runs", 5,
                 "--node-name-map", names], check=False)
    assert score.returncode == 1 and "rack1-leaf-A" in score.stderr, score.stderr


def test_a_bad_map_is_named_with_its_line(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "3x3")
    names = tmp_path / "bad.map"
    names.write_text("0x10 fine\nleaf7 \"no guid\"\n")
    res = run([binary("psssp-sim"), "info", net, "--node-name-map", names], check=False)
    assert res.returncode == 2
    assert "bad.map:2: not a GUID" in res.stderr, res.stderr
