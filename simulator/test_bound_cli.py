# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""psssp-sim bound and score --bound through the command line: the JSON
report, the bound per run against score's eBB per run on the same flows,
--time-limit, and which method ran."""

import json

from psssp_tools import binary, generate, run


def sim(*args):
    return run([binary("psssp-sim")] + [str(a) for a in args])


def test_bound_json_on_a_full_bisection_tree(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 4, "--n", 2)
    d = json.loads(sim("bound", net, "--runs", 6, "--json").stdout)
    assert list(d)[0] == "version"
    assert d["runs"] == 6 and d["runs_bounded"] == 6 and d["runs_exact"] == 6
    assert d["solver"] == "COIN-OR CLP"
    assert d["method"] == "exact" and d["method_requested"] == "auto"
    assert abs(d["bound"] - 1.0) < 1e-6
    assert len(d["run_bounds"]) == 6


def test_score_bound_share_is_per_run_and_at_most_one(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4", "--hosts-per-switch", 2)
    lfts = tmp_path / "r.lfts"
    sim("route", net, "-o", lfts)
    bound = json.loads(sim("bound", net, "--runs", 5, "--seed", 3, "--json").stdout)
    score = json.loads(sim("score", net, "--routes", lfts, "--runs", 5, "--seed", 3, "--bound",
                           "--json").stdout)
    # The same flows in both: score's bound is bound's.
    assert abs(score["bound"]["bound"] - bound["bound"]) < 1e-9
    share = score["results"][0]["share_of_bound"]
    assert 0 < share <= 1 + 1e-9
    minimal = json.loads(sim("bound", net, "--runs", 5, "--seed", 3, "--minimal",
                             "--json").stdout)
    assert all(m <= b + 1e-7 for m, b in zip(minimal["run_bounds"], bound["run_bounds"]))
    table = sim("score", net, "--routes", lfts, "--runs", 5, "--seed", 3, "--bound").stdout
    assert "% of bound" in table and "bound (LP, any routing, 5 runs)" in table


def test_time_limit_before_any_run_is_an_error(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "8x8", "--hosts-per-switch", 4)
    proc = run([binary("psssp-sim"), "bound", net, "--time-limit", "0.000001"], check=False)
    assert proc.returncode == 2
    assert "--time-limit" in proc.stderr


def test_bad_eps_and_time_limit_are_one_usage_error_naming_the_range(tmp_path):
    net = generate("kary-ntree", str(tmp_path / "f.net"), "--k", 2, "--n", 2)
    for args, words in ((["--eps", "0"], ["--eps: 0 is out of range", "more than 0, at most 1"]),
                        (["--eps", "1.5"], ["--eps: 1.5 is out of range", "at most 1"]),
                        (["--eps", "-0.1"], ["--eps: -0.1 is out of range"]),
                        (["--eps", "nan"], ["--eps: 'nan' is not a number", "more than 0"]),
                        (["--eps", "2%"], ["--eps: '2%' is not a number"]),
                        (["--time-limit", "-1"], ["--time-limit: -1 is out of range",
                                                  "0 to 1e9"]),
                        (["--time-limit", "soon"], ["--time-limit: 'soon' is not a number"])):
        proc = run([binary("psssp-sim"), "bound", net] + args, check=False)
        assert proc.returncode == 2 and proc.stdout == "", (args, proc.stdout, proc.stderr)
        first, *rest = proc.stderr.splitlines()
        assert first.startswith("psssp-sim bound: "), proc.stderr
        for word in words:
            assert word in first, (word, first)
        # The one line, and the pointer to --help every usage error ends with.
        assert rest == ["Run 'psssp-sim bound --help' for the options."], proc.stderr
    d = json.loads(sim("bound", net, "--runs", 2, "--eps", "1", "--method", "approximate",
                       "--json").stdout)
    assert d["eps"] == 1 and d["runs_bounded"] == 2


def test_auto_runs_the_approximation_on_a_large_lp_and_says_so(tmp_path):
    # 512 hosts on 128 switches: above auto's exact size.
    net = generate("hypercube", str(tmp_path / "h.net"), "--dim", 7, "--hosts-per-switch", 4)
    d = json.loads(sim("bound", net, "--runs", 2, "--json").stdout)
    assert d["method"] == "approximate, eps=0.02" and d["runs_approximate"] == 2
    assert d["solver"] == "none (Garg-Konemann / Fleischer)"
    assert d["runs_incomplete"] == 0 and d["max_gap"] <= 0.02 + 1e-12
    assert d["feasible"] <= d["bound"] <= 1
    table = sim("bound", net, "--runs", 2, "--eps", "0.05").stdout
    assert "method: approximate, eps=0.05 (Garg-Konemann / Fleischer lengths, certified gap " \
        "<= 0.05) on 2 of 2 runs" in table
    # One run on two threads: the same bound as on one.
    one, two = (json.loads(sim("bound", net, "--runs", 1, "--threads", t, "--json").stdout)
                for t in (1, 2))
    assert one["run_bounds"] == two["run_bounds"] and two["threads"] == 2


def test_exact_and_approximate_agree_within_eps(tmp_path):
    net = generate("torus", str(tmp_path / "t.net"), "--dims", "4x4", "--hosts-per-switch", 2)
    exact = json.loads(sim("bound", net, "--runs", 4, "--json").stdout)
    approx = json.loads(sim("bound", net, "--runs", 4, "--method", "approximate",
                            "--json").stdout)
    assert exact["method"] == "exact" and approx["method"] == "approximate, eps=0.02"
    for e, a in zip(exact["run_bounds"], approx["run_bounds"]):
        assert e - 1e-6 <= a <= 1.02 * e + 1e-6
