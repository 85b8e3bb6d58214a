# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""compare-engines and check-fabric refuse what they cannot do with one
message and exit status 2, before they start OpenSM, and print the project
version. Every case runs the real script."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from psssp_tools import ROOT, binary, generate

SCRIPTS = os.path.join(ROOT, "scripts")
# What gets installed beside the scripts: every module but the tests (as the
# top-level CMakeLists.txt installs them).
MODULES = sorted(f for f in os.listdir(SCRIPTS)
                 if f.endswith(".py") and not f.startswith("test_"))


def script(name, *args, env=None, cwd=None, path=SCRIPTS):
    return subprocess.run([sys.executable, os.path.join(path, name)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120, cwd=cwd,
                          env=dict(os.environ, **(env or {})))


def refused(proc, *words):
    """Exit 2, no traceback, one stderr line naming every word, nothing on stdout."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [l for l in proc.stderr.splitlines() if not l.startswith("[")]  # progress
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert proc.stdout == ""
    return lines[0]


@pytest.fixture(scope="module")
def net(tmp_path_factory):
    return generate("kary-ntree", str(tmp_path_factory.mktemp("net") / "f.net"), "--k", 2,
                    "--n", 2)


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(psssp VERSION (\d+\.\d+\.\d+)", f.read()).group(1)


# -- check-fabric ------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--runs", "0"], ["--runs", "at least 1"]),
    (["--runs", "many"], ["--runs", "'many'"]),
    (["--seed", "-1"], ["--seed"]),
    (["--timeout", "0"], ["--timeout"]),
    (["--min-ebb", "1.5"], ["--min-ebb", "0..1"]),
    (["--min-ebb", "-0.1"], ["--min-ebb", "0..1"]),
    (["--min-ebb", "nan"], ["--min-ebb", "0..1"]),
    (["--min-ebb", "shift=2"], ["--min-ebb", "0..1"]),
    (["--min-ebb", "=0.5"], ["--min-ebb", "a pattern before"]),
    (["--min-ebb", "cap:0.5"], ["--min-ebb", "capacity or plain"]),
    (["--min-ebb", "capacity:1.5"], ["--min-ebb", "0..1"]),
    (["--opensm-args", "-R 'minhop"], ["--opensm-args", "quotation"]),
])
def test_check_fabric_refuses_bad_options(net, args, words):
    refused(script("check-fabric", net, *args), "check-fabric", *words)


def test_check_fabric_refuses_a_missing_ibsim(net, tmp_path):
    # No ibsim on PATH (nor in the sbin directories): named with its package.
    empty = tmp_path / "bin"
    empty.mkdir()
    refused(script("check-fabric", net, env={"PATH": str(empty)}), "ibsim", "ibsim-utils")


def test_check_fabric_refuses_a_bad_build_directory(net, tmp_path):
    refused(script("check-fabric", net, env={"PSSSP_BUILD": str(tmp_path / "nope")}),
            "psssp-sim", str(tmp_path / "nope"))


def test_check_fabric_refuses_a_fabric_ibsim_rejects(tmp_path):
    bad = tmp_path / "bad.net"
    bad.write_text('Switch 4 "s1"\n[1] "nowhere"[1]\n')
    line = refused(script("check-fabric", bad), "ibsim cannot load", str(bad))
    assert "nowhere" in line  # ibsim's own complaint


@pytest.mark.parametrize("option", ["--json", "--junit"])
def test_check_fabric_refuses_unwritable_reports(net, tmp_path, option):
    refused(script("check-fabric", net, option, tmp_path / "no" / "dir" / "r"), option)
    refused(script("check-fabric", net, option, tmp_path), option)


def test_check_fabric_refuses_a_workdir_that_is_a_file(net, tmp_path):
    refused(script("check-fabric", net, "--workdir", net), "--workdir")


# -- compare-engines ---------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--topology", ""], ["--topology", "empty"]),
    (["--topology", "torus --dims '3x3"], ["--topology", "quotation"]),
    (["--topology", "moebius --k 2"], ["--topology", "unknown topology family 'moebius'"]),
    (["--topology", "torus --dims 3x3", "--runs", "0"], ["--runs", "at least 1"]),
    (["--topology", "torus --dims 3x3", "--engines", ","], ["--engines", "no engine"]),
    (["--topology", "torus --dims 3x3", "--engines", "minhop,bogus"], ["bogus"]),
    (["--topology", "torus --dims 3x3", "--engines", "psssp", "--psssp-options",
      "vls=2\nrouting_engine minhop"], ["--psssp-options", "one line"]),
    (["--topology", "torus --dims 3x3", "--hot-spots", "0"], ["--hot-spots", "at least 1"]),
    (["--topology", "torus --dims 3x3", "--engines", "minhop,sssp", "--view-engine", "psssp"],
     ["--view-engine psssp", "not among --engines"]),
])
def test_compare_engines_refuses_bad_options(tmp_path, args, words):
    out = tmp_path / "out"
    refused(script("compare-engines", *args, "--out", out), "compare-engines", *words)
    assert not (out / "results.csv").exists()


def test_compare_engines_refuses_a_fabric_ibsim_rejects(tmp_path):
    bad = tmp_path / "bad.net"
    bad.write_text("not a fabric\n")
    refused(script("compare-engines", bad, "--engines", "minhop", "--out", tmp_path / "out"),
            "ibsim cannot load", str(bad))
    assert not (tmp_path / "out" / "results.csv").exists()


def test_compare_engines_refuses_an_out_that_is_a_file(net, tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("mine\n")
    refused(script("compare-engines", net, "--engines", "minhop", "--out", taken), "--out",
            "not a directory")
    assert taken.read_text() == "mine\n"


def test_compare_engines_refuses_bad_roots_and_opensm_args(net, tmp_path):
    refused(script("compare-engines", net, "--roots", tmp_path / "none.guids", "--out",
                   tmp_path / "out"), "--roots", "no such file")
    refused(script("compare-engines", net, "--opensm-args", "lash", "--out", tmp_path / "out"),
            "--opensm-args", "expected ENGINE=ARGS")
    refused(script("check-fabric", net, "--roots", tmp_path / "none.guids"), "--roots",
            "no such file")


def test_pattern_list_matches_psssp_sim(tmp_path):
    from psssp_tools import ORCS_K_PATTERNS, ORCS_PATTERNS, PATTERNS
    text = subprocess.run([binary("psssp-sim"), "score", "--help"], capture_output=True,
                          text=True, check=True).stdout
    listed = " ".join(text[text.index("patterns:"):].split())
    listed = listed[:listed.index("Deterministic")]
    named = set(re.findall(r"(?<![\w:-])([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?= \(|,| |\|)",
                           listed))
    for pattern in PATTERNS:
        assert pattern in named, (pattern, listed)
    assert "file:PATH" in listed
    orcs = set(re.findall(r"orcs:([a-z0-9]+(?::K)?)", text))
    assert orcs == set(ORCS_PATTERNS) | {k + ":K" for k in ORCS_K_PATTERNS}, orcs


@pytest.mark.parametrize("name", ["compare-engines", "check-fabric"])
def test_scripts_refuse_unknown_patterns(net, tmp_path, name):
    out = ["--out", tmp_path / "out"] if name == "compare-engines" else []
    refused(script(name, net, "--pattern", "bisekt", *out), "--pattern bisekt", "unknown")
    refused(script(name, net, "--pattern", "orcs:neighbor", *out), "--pattern orcs:neighbor",
            "unknown")
    refused(script(name, net, "--pattern", "file:" + str(tmp_path / "none"), *out),
            "no such file")


def test_compare_engines_refuses_a_missing_fabric(tmp_path):
    refused(script("compare-engines", tmp_path / "nope.net", "--out", tmp_path / "out"),
            "nope.net", "no such file")


# -- --version ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["compare-engines", "check-fabric"])
def test_version_from_the_source_tree(name, tmp_path):
    proc = script(name, "--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "%s (psssp) %s\n" % (name, project_version())
    # Without a built psssp-sim: CMakeLists.txt's version.
    proc = script(name, "--version", env={"PSSSP_BUILD": str(tmp_path / "nope")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "%s (psssp) %s\n" % (name, project_version())


def install(name, tmp_path):
    """The script and its modules outside the source tree, as a package installs them."""
    installed = tmp_path / "share"
    installed.mkdir()
    for f in [name] + MODULES:
        shutil.copy(os.path.join(SCRIPTS, f), installed)
    return installed / name


def installed_env(bindir):
    env = {k: v for k, v in os.environ.items() if k != "PSSSP_BUILD"}
    env["PATH"] = "%s:%s" % (bindir, env.get("PATH", ""))
    return env


@pytest.mark.parametrize("name", ["compare-engines", "check-fabric"])
def test_version_installed_without_psssp_sim_is_refused(name, tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    env = installed_env(bindir)
    if shutil.which("psssp-sim", path=env["PATH"]):
        pytest.skip("a psssp-sim is installed on this machine")
    proc = subprocess.run([sys.executable, str(install(name, tmp_path)), "--version"],
                          capture_output=True, text=True, env=env)
    refused(proc, "cannot tell the version", "psssp-sim not found")


@pytest.mark.parametrize("name", ["compare-engines", "check-fabric"])
def test_version_when_installed(name, tmp_path):
    # Installed: the script and its modules outside the source tree, psssp-sim
    # on PATH, no PSSSP_BUILD and no CMakeLists.txt to fall back on.
    sim = subprocess.run([binary("psssp-sim"), "--version"], capture_output=True, text=True)
    if sim.returncode != 0:
        pytest.skip("this psssp-sim has no --version yet")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(binary("psssp-sim"), bindir / "psssp-sim")
    proc = subprocess.run([sys.executable, str(install(name, tmp_path)), "--version"],
                          capture_output=True, text=True, env=installed_env(bindir))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "%s (psssp) %s\n" % (name, re.search(r"\d+\.\d+\.\d+\S*",
                                                               sim.stdout).group(0))
