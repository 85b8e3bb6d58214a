# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""psssp-sim route: a bad option value gets one message naming the option
and the accepted words (from the shared option_names table), exit 2, and no
output file."""

import json

import pytest
from psssp_tools import binary, generate, run


@pytest.mark.parametrize("option, value, words", [
    ("--effort", "max", "'auto', 'full' or 'fast'"),
    ("--order", "best", "'auto', 'switches', 'interleaved' or 'lid'"),
    ("--affinity", "3", "SOURCE,ROOT"),
])
def test_bad_value_is_named_and_nothing_is_written(tmp_path, option, value, words):
    net = generate("torus", str(tmp_path / "fabric.net"), "--dims", "3x3")
    out = tmp_path / "lfts.dump"
    proc = run([binary("psssp-sim"), "route", net, "-o", out, option, value], check=False)
    assert proc.returncode == 2, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith("psssp-sim route: " + option + " is "), first
    assert words in first and "'%s'" % value in first, first
    assert not out.exists()


@pytest.mark.parametrize("effort", ["auto", "full", "fast"])
def test_every_effort_word_routes(tmp_path, effort):
    net = generate("torus", str(tmp_path / "fabric.net"), "--dims", "3x3")
    proc = run([binary("psssp-sim"), "route", net, "-o", tmp_path / "lfts.dump",
                "--effort", effort])
    want = "fast effort" if effort == "fast" else "full effort"
    assert want in proc.stderr, proc.stderr


@pytest.mark.parametrize("rate_args, options, weighed", [
    ([], [], False),                                   # one rate: automatic is off
    (["--degrade", "0.2"], [], True),                  # mixed switch cables: on
    (["--degrade", "0.2"], ["--no-capacity"], False),
    ([], ["--capacity"], True),
])
def test_summary_says_whether_load_is_weighed_by_capacity(tmp_path, rate_args, options, weighed):
    net = generate("torus", str(tmp_path / "fabric.net"), "--dims", "3x3", *rate_args)
    proc = run([binary("psssp-sim"), "route", net, "-o", tmp_path / "lfts.dump", "--json",
                *options])
    assert json.loads(proc.stdout)["capacity_weights"] is weighed
    proc = run([binary("psssp-sim"), "route", net, "-o", tmp_path / "lfts.dump", *options])
    assert ("load weighed by capacity" in proc.stderr) == weighed, proc.stderr


def test_summary_names_the_rank_neighbours_routing_and_every_candidates_estimates(tmp_path):
    # Two IS5100 chassis joined by six cables: the wide rank-neighbours
    # routing, refined for the patterns, is kept. The JSON gives every
    # candidate's estimates on the judged patterns, the kept one's equal to
    # estimated_patterns; judged on bisections alone there are neither
    # pattern estimates nor neighbour or refined candidates.
    net = generate("director", str(tmp_path / "fabric.net"), "--model", "is5100",
                   "--chassis", 2, "--bundle", 6)
    out = tmp_path / "lfts.dump"
    report = json.loads(run([binary("psssp-sim"), "route", net, "-o", out, "--json"]).stdout)
    assert report["neighbour_window"] == 16
    by_candidate = report["estimated_candidate_patterns"]
    assert set(by_candidate) == set(report["estimated_ebb"])
    assert {"neighbours", "neighbours_wide"} <= set(by_candidate)
    for estimates in by_candidate.values():
        assert set(estimates) == set(report["estimated_patterns"])
    assert by_candidate["pattern_refined"] == report["estimated_patterns"]
    assert report["pattern_moves"] > 0
    assert report["estimated_ebb"]["pattern_refined"] > 0
    text = run([binary("psssp-sim"), "route", net, "-o", out]).stderr
    assert "; rank neighbours (window 16); pattern-refined (%d entries moved)" % (
        report["pattern_moves"]) in text, text
    plain = json.loads(run([binary("psssp-sim"), "route", net, "-o", out, "--json",
                            "--bisect-choice"]).stdout)
    assert plain["neighbour_window"] == 0
    assert plain["estimated_candidate_patterns"] is None
    assert "neighbours" not in plain["estimated_ebb"]
    assert "pattern_refined" not in plain["estimated_ebb"]
    assert plain["pattern_moves"] == 0
