# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The COMMAND-LINE RULES of psssp-sim(1), one test per row of the table,
each run against the real psssp-sim and psssp-topo binaries."""

import json
import os
import re
import resource
import signal
import subprocess

import pytest
from psssp_tools import ROOT, binary, generate, run

SIM = binary("psssp-sim")
TOPO = binary("psssp-topo")


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(psssp VERSION (\S+)", f.read()).group(1)


def guid2lid(path, switches, hosts):
    """An OpenSM guid2lid file for a psssp-topo fabric with one port per
    host, from the GUID rule of psssp-topo(1)."""
    lines = ["0x%016x %d %d" % (0x5053570000000000 + i, i + 1, i + 1) for i in range(switches)]
    lines += ["0x%016x %d %d" % (0x5053480000000000 + 16 * h + 1, switches + h + 1,
                                 switches + h + 1) for h in range(hosts)]
    path.write_text("\n".join(lines) + "\n")
    return path


def broken_copy(lfts, path):
    """The tables with one switch's entry for LID 1 set to port 255: a black hole."""
    text = lfts.read_text()
    switch = text.index("Unicast lids")
    entry = text.index("\n0x0001 ", switch) + 1
    path.write_text(text[:entry] + "0x0001 255" + text[entry + len("0x0001 001"):])
    return path


@pytest.fixture(scope="module")
def fab(tmp_path_factory):
    """A 3x3 torus (9 switches, 9 hosts), its P-SSSP tables, a broken copy and
    LID files that cover it, cover nothing, and cover a 2x2 torus only."""
    d = tmp_path_factory.mktemp("cli-rules")
    net = d / "t.net"
    generate("torus", str(net), "--dims", "3x3")
    lfts = d / "t.lfts"
    run([SIM, "route", net, "-o", lfts])
    empty = d / "empty.guid2lid"
    empty.write_text("")

    class Fab:
        pass
    f = Fab()
    f.dir, f.net, f.lfts, f.empty_lids = d, net, lfts, empty
    f.broken = broken_copy(lfts, d / "broken.lfts")
    f.lids = guid2lid(d / "t.guid2lid", 9, 9)
    f.other_lids = guid2lid(d / "other.guid2lid", 4, 4)
    return f


def sim(*args, **kwargs):
    return run([SIM] + list(args), check=False, **kwargs)


def one_line_error(proc, prefix):
    """The error is one line (plus at most a pointer to --help) naming the command."""
    lines = proc.stderr.splitlines()
    assert lines and lines[0].startswith(prefix + ": "), proc.stderr
    assert len(lines) == 1 or (len(lines) == 2 and "--help" in lines[1]), proc.stderr
    return lines[0]


def without_timings(report):
    return {k: v for k, v in report.items() if "seconds" not in k}


# -- option forms: --opt value, --opt=value, values starting with -, "--"

def test_option_forms(fab, tmp_path):
    spaced = sim("info", fab.net, "--lids", fab.lids)
    joined = sim("info", "--lids=%s" % fab.lids, "--", fab.net)
    assert spaced.returncode == 0 and spaced.stdout == joined.stdout, joined.stderr
    assert "lids from:  %s" % fab.lids in spaced.stdout

    a = sim("check", fab.net, "--routes", fab.lfts, "--max-faults", 5, "--threads", 2, "--json")
    b = sim("check", fab.net, "--routes=%s" % fab.lfts, "--max-faults=5", "--threads=2", "--json")
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert without_timings(json.loads(a.stdout)) == without_timings(json.loads(b.stdout))

    for form in (["--runs", "3", "--threads", "2", "--name", "-x"],
                 ["--runs=3", "--threads=2", "--name=-x"]):
        res = sim("score", fab.net, "--routes", fab.lfts, "--json", *form)
        report = json.loads(res.stdout)
        assert (report["runs"], report["threads"]) == (3, 2), form
        assert report["results"][0]["name"] == "-x", form

    sim("route", fab.net, "-o", tmp_path / "a.lfts", "--threads", 2, "--order", "lid")
    sim("route", fab.net, "--output=%s" % (tmp_path / "b.lfts"), "--threads=2", "--order=lid")
    assert (tmp_path / "a.lfts").read_text() == (tmp_path / "b.lfts").read_text()

    # psssp-topo: family options in both forms, global options before or after them.
    run([TOPO, "torus", "--dims", "4x4", "-o", tmp_path / "x.net"])
    run([TOPO, "-o", tmp_path / "y.net", "torus", "--dims=4x4"])
    run([TOPO, "torus", "--dims=4x4", "--output=%s" % (tmp_path / "z.net")])
    x = (tmp_path / "x.net").read_text()
    assert "16 switches" in x and x == (tmp_path / "y.net").read_text()
    assert x == (tmp_path / "z.net").read_text()


# -- repeated option: the last value counts; --routes and --name collect

def test_repeated_option(fab, tmp_path):
    res = sim("score", fab.net, "--routes", fab.lfts, "--routes", fab.lfts, "--name", "a",
              "--name", "b", "--runs", 3, "--runs", 5, "--json")
    report = json.loads(res.stdout)
    assert report["runs"] == 5
    assert [r["name"] for r in report["results"]] == ["a", "b"]
    run([TOPO, "torus", "--dims", "2x2", "--dims", "3x3", "-o", tmp_path / "t.net"])
    assert "9 switches" in (tmp_path / "t.net").read_text()


# -- numbers: decimal or 0x-hex digits within the option's range

@pytest.mark.parametrize("args, message", [
    (["score", "{net}", "--routes", "{lfts}", "--threads", "4294967296"],
     "--threads: 4294967296 is out of range (at most 1024)"),
    (["route", "{net}", "-o", "{tmp}/x", "--threads", "1025"],
     "--threads: 1025 is out of range (at most 1024)"),
    (["check", "{net}", "--routes", "{lfts}", "--threads", "-1"],
     "--threads: '-1' is not a number (decimal or 0x-hex digits)"),
    (["score", "{net}", "--routes", "{lfts}", "--runs", "0"],
     "--runs: 0 is out of range (1 to 10000000)"),
    (["score", "{net}", "--routes", "{lfts}", "--runs", "99999999999999999999"],
     "--runs: 99999999999999999999 is out of range (1 to 10000000)"),
    (["score", "{net}", "--routes", "{lfts}", "--seed", "18446744073709551616"],
     "--seed: 18446744073709551616 is out of range (at most 18446744073709551615)"),
    (["check", "{net}", "--routes", "{lfts}", "--max-faults", "1e3"],
     "--max-faults: '1e3' is not a number (decimal or 0x-hex digits)"),
    (["route", "{net}", "-o", "{tmp}/x", "--refine", "two"],
     "--refine: 'two' is not a number (decimal or 0x-hex digits)"),
])
def test_numbers_out_of_range_or_malformed(fab, tmp_path, args, message):
    args = [a.format(net=fab.net, lfts=fab.lfts, tmp=tmp_path) for a in args]
    res = sim(*args)
    assert res.returncode == 2
    assert one_line_error(res, "psssp-sim " + args[0]) == "psssp-sim %s: %s" % (args[0], message)
    assert not (tmp_path / "x").exists()


def test_numbers_accepted(fab, tmp_path):
    res = sim("score", fab.net, "--routes", fab.lfts, "--runs", "010", "--seed", "0x10",
              "--threads", "0", "--json")
    report = json.loads(res.stdout)
    assert (report["runs"], report["seed"]) == (10, 16)  # 010 is decimal, not octal
    assert report["threads"] >= 1  # 0 = one per core
    big = run([TOPO, "kary-ntree", "--n", "99"], check=False)
    assert big.returncode == 2
    assert one_line_error(big, "psssp-topo kary-ntree").endswith(
        "the parameter product exceeds what a fabric can hold (more than 100000 switches)")
    res = run([TOPO, "torus", "--hosts-per-switch", "1000001"], check=False)
    assert res.returncode == 2
    assert "--hosts-per-switch: 1000001 is out of range (at most 1000000)" in res.stderr


# -- standard output: "-" is standard output, one output at most

def test_dash_is_standard_output(fab, tmp_path):
    res = sim("route", fab.net, "-o", "-", cwd=tmp_path)
    assert res.returncode == 0 and res.stdout == fab.lfts.read_text()
    assert os.listdir(tmp_path) == []  # no file named "-"
    roots = tmp_path / "roots.txt"
    run([TOPO, "kary-ntree", "--roots", roots, "-o", tmp_path / "ft.net"])
    net = run([TOPO, "kary-ntree", "--roots", roots])  # -o defaults to -
    assert net.stdout == (tmp_path / "ft.net").read_text()
    both = run([TOPO, "kary-ntree", "--roots", "-", "-o", tmp_path / "ft2.net"])
    assert both.stdout == roots.read_text() and both.stdout.startswith("0x")

    for args, message in [
            (["score", fab.net, "--routes", fab.lfts, "--dump-patterns", "-"],
             "the score table and --dump-patterns - both write to standard output"),
            (["route", fab.net, "-o", "-", "--json"],
             "--json and -o - both write to standard output")]:
        res = sim(*args)
        assert res.returncode == 2 and one_line_error(res, "psssp-sim " + args[0]).endswith(
            message)
    res = run([TOPO, "torus", "--json"], check=False)
    assert res.returncode == 2 and "--json and -o - both write to standard output" in res.stderr
    res = run([TOPO, "kary-ntree", "--roots", "-"], check=False)
    assert res.returncode == 2 and "-o - and --roots - both write" in res.stderr


# -- whole outputs: renamed into place only when every output succeeded

def size_limited(limit):
    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return dict(preexec_fn=limit_file_size, restore_signals=False)


def test_outputs_whole_or_not_at_all(fab, tmp_path):
    size = len(fab.lfts.read_text())
    out = tmp_path / "routes.lfts"
    out.write_text("old tables\n")
    res = sim("route", fab.net, "-o", out, **size_limited(size // 2))
    assert res.returncode == 2
    assert one_line_error(res, "psssp-sim route") == \
        "psssp-sim route: cannot write %s: File too large" % out
    assert out.read_text() == "old tables\n"
    assert sorted(os.listdir(tmp_path)) == ["routes.lfts"]  # no temporary file left

    # The side file fits, the net file does not: neither appears.
    roots, net = tmp_path / "roots.txt", tmp_path / "big.net"
    res = run([TOPO, "kary-ntree", "--k", "8", "--n", "2", "--roots", roots, "-o", net],
              check=False, **size_limited(4096))
    assert res.returncode == 2 and "cannot write %s: File too large" % net in res.stderr
    assert not roots.exists() and not net.exists()
    # Without the limit both appear.
    run([TOPO, "kary-ntree", "--k", "8", "--n", "2", "--roots", roots, "-o", net])
    assert roots.read_text().count("\n") == 8 and net.stat().st_size > 4096

    patterns, links = tmp_path / "flows.txt", tmp_path / "links.csv"
    res = sim("score", fab.net, "--routes", fab.lfts, "--runs", 2000, "--dump-patterns",
              patterns, "--link-csv", links, **size_limited(8192))
    assert res.returncode == 2 and "File too large" in res.stderr
    assert not patterns.exists() and not links.exists()
    assert sorted(os.listdir(tmp_path)) == ["big.net", "roots.txt", "routes.lfts"]

    # A device is written in place, not replaced.
    assert sim("route", fab.net, "-o", "/dev/null").returncode == 0
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


# -- exit status: 0 ok, 1 verdict "no", 2 usage/input/output error

def test_exit_status(fab, tmp_path):
    assert sim("check", fab.net, "--routes", fab.lfts).returncode == 0
    broken = sim("check", fab.net, "--routes", fab.broken)
    assert broken.returncode == 1 and "FAILED" in broken.stdout
    differ = sim("check", fab.net, "--routes", fab.lfts, "--same-as", fab.broken)
    assert differ.returncode == 1 and "differs: " in differ.stdout
    score = sim("score", fab.net, "--routes", fab.broken, "--runs", 50)
    assert score.returncode == 1
    one_line_error(score, "psssp-sim score")

    usage_and_input_errors = [  # (the command named in the message, arguments)
        ("psssp-sim", [SIM]),
        ("psssp-sim", [SIM, "chek"]),
        ("psssp-sim info", [SIM, "info", fab.net, "--bogus"]),
        ("psssp-sim info", [SIM, "info", fab.net, "extra"]),
        ("psssp-sim check", [SIM, "check", fab.net]),
        ("psssp-sim check", [SIM, "check", fab.net, "--routes", fab.lfts, "--sl2vl", "x"]),
        ("psssp-sim check", [SIM, "check", fab.net, "--routes", tmp_path / "missing.lfts"]),
        ("psssp-sim score", [SIM, "score", fab.net, "--routes", fab.lfts, "--pattern", "no"]),
        ("psssp-sim score", [SIM, "score", fab.net, "--routes", fab.lfts, "--json", "--csv"]),
        ("psssp-sim route", [SIM, "route", fab.net]),
        ("psssp-sim route", [SIM, "route", fab.net, "-o", tmp_path / "x", "--effort", "max"]),
        ("psssp-sim route", [SIM, "route", tmp_path / "missing.net", "-o", tmp_path / "x"]),
        ("psssp-sim route", [SIM, "route", fab.net, "-o", tmp_path / "no" / "dir" / "x"]),
        ("psssp-topo", [TOPO]),
        ("psssp-topo", [TOPO, "butterfly"]),
        ("psssp-topo torus", [TOPO, "torus", "--k", "4"]),
        ("psssp-topo torus", [TOPO, "torus", "--fail", "2"]),
        ("psssp-topo torus", [TOPO, "torus", "--roots", tmp_path / "r.txt", "-o", tmp_path / "x"]),
    ]
    for command, args in usage_and_input_errors:
        res = run(args, check=False)
        assert res.returncode == 2, (args, res.returncode, res.stderr)
        one_line_error(res, command)
    assert not (tmp_path / "x").exists() and not (tmp_path / "r.txt").exists()


@pytest.mark.parametrize("args", [
    ["--help"],
    ["info", "{net}"],
    ["info", "{net}", "--json"],
    ["check", "{net}", "--routes", "{lfts}"],
    ["score", "{net}", "--routes", "{lfts}", "--runs", "3", "--csv"],
    ["route", "{net}", "-o", "-"],
    ["route", "{net}", "-o", "{tmp}/x", "--json"],
])
def test_exit_status_when_standard_output_fails(fab, tmp_path, args):
    args = [a.format(net=fab.net, lfts=fab.lfts, tmp=tmp_path) for a in args]
    with open("/dev/full", "w") as full:
        res = subprocess.run([str(SIM)] + args, stdout=full, stderr=subprocess.PIPE, text=True)
    assert res.returncode == 2, res.stderr
    assert "No space left on device" in res.stderr
    assert not (tmp_path / "x").exists()  # --json fails, so the tables are not renamed


# -- help and version on every command

COMMANDS = [[SIM], [SIM, "info"], [SIM, "check"], [SIM, "score"], [SIM, "route"], [TOPO],
            [TOPO, "torus"], [TOPO, "random-regular"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(map(os.path.basename, c)))
def test_help_and_version(command):
    program = os.path.basename(command[0])
    for flag in ("--help", "-h"):
        res = run(command + [flag])
        assert res.stdout.count("Usage: %s" % " ".join([program] + command[1:])) == 1
        assert "--version" in res.stdout and res.stderr == ""
    res = run(command + ["--version"])
    assert res.stdout == "%s %s\n" % (program, project_version())


# -- JSON: one object, first field "version", structured values

def test_json_reports(fab, tmp_path):
    # Minimal routes on a 5x5 torus on one VL have a credit loop: verdict "no".
    loop_net = generate("torus", str(tmp_path / "5x5.net"), "--dims", "5x5")
    run([SIM, "route", loop_net, "-o", tmp_path / "5x5.lfts"])
    reports = {
        "info": sim("info", fab.net, "--json"),
        "check": sim("check", fab.net, "--routes", fab.lfts, "--json"),
        "deadlock": sim("check", loop_net, "--routes", tmp_path / "5x5.lfts", "--json",
                        "--deadlock"),
        "score": sim("score", fab.net, "--routes", fab.lfts, "--runs", 3, "--json"),
        "route": sim("route", fab.net, "-o", tmp_path / "r.lfts", "--json"),
        "psssp-topo": run([TOPO, "torus", "--json", "-o", tmp_path / "t.net"], check=False),
    }
    for name, res in reports.items():
        assert res.returncode == (1 if name == "deadlock" else 0), (name, res.stderr)
        assert res.stdout.count("\n") == 1, name
        report = json.loads(res.stdout)
        assert list(report)[0] == "version" and report["version"] == project_version(), name
    info = json.loads(reports["info"].stdout)
    assert (info["switches"], info["host_ports"], info["cables"]["total"]) == (9, 9, 27)
    assert info["lids"] == {"min": 1, "max": 18}
    check = json.loads(reports["check"].stdout)
    link = check["edge_forwarding_index"]["max_link"]
    assert set(link) == {"from", "to"}
    for end in link.values():
        assert re.fullmatch(r"0x5053570{9}[0-9a-f]", end["node_guid"]), end
        assert end["node"].startswith("sw-") and 1 <= end["port"] <= 5
    loops = json.loads(reports["deadlock"].stdout)["deadlock"]
    assert loops["deadlock_free"] is False and loops["vls"] == [0]
    for link in loops["cycle"]:
        assert set(link) == {"switch_guid", "port", "vl", "slid", "dlid", "switch_route"}
        assert link["vl"] == 0
    route = json.loads(reports["route"].stdout)
    assert route["switches"] == 9 and route["unreachable"] == [] and route["effort"] == "full"
    assert reports["route"].stderr == ""  # the summary went to the JSON
    topo = json.loads(reports["psssp-topo"].stdout)
    assert (topo["family"], topo["switches"], topo["hosts"]) == ("torus", 16, 16)


# -- LID files must cover the fabric (check, score, route)

def test_lid_files_must_cover_the_fabric(fab, tmp_path):
    commands = {
        "check": ["check", fab.net, "--routes", fab.lfts],
        "score": ["score", fab.net, "--routes", fab.lfts, "--runs", 3],
        "route": ["route", fab.net, "-o", tmp_path / "x"],
    }
    for name, args in commands.items():
        assert sim(*args, "--lids", fab.lids).returncode == 0, name
        for lids in (fab.empty_lids, fab.other_lids):
            res = sim(*args, "--lids", lids)
            assert res.returncode == 2, (name, lids)
            line = one_line_error(res, "psssp-sim " + name)
            assert re.search(r": %s: no LID for .* port \d+ \(port GUID 0x[0-9a-f]{16}\); "
                             r"the file does not cover this fabric$" % re.escape(str(lids)),
                             line), line
    (tmp_path / "x").unlink()
    info = sim("info", fab.net, "--lids", fab.empty_lids)
    assert info.returncode == 0 and "cabled CA ports have no LID in this file" in info.stdout
